/**
 * The binary fixtures of the everything server: a tiny image, a tiny sound and an icon. They are small on
 * purpose (tests compare them byte for byte and they travel in every result that carries them).
 */

/** A 1×1 red pixel, PNG (69 bytes), base64. Used wherever the conformance suite wants "a minimal test image". */
export const RED_PIXEL_PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** MIME type of {@link RED_PIXEL_PNG_BASE64}. */
export const PNG_MIME_TYPE = 'image/png';

/** MIME type of {@link TONE_WAV_BASE64} (the conformance suite checks for exactly this one). */
export const WAV_MIME_TYPE = 'audio/wav';

/** Sample rate, length and pitch of the tone. */
const SAMPLE_RATE = 8000;
const SAMPLES = 400; // 50 ms
const PITCH_HZ = 440;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

/**
 * A valid RIFF/WAVE file: 50 ms of a 440 Hz tone, 8 kHz, 8-bit unsigned mono (444 bytes). Built rather than
 * embedded so the header fields can be read next to their meaning.
 */
function buildToneWav(): Uint8Array {
  const bytes = new Uint8Array(44 + SAMPLES);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + SAMPLES, true); // size of everything after this field
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // fmt chunk size (PCM)
  view.setUint16(20, 1, true); // format: PCM
  view.setUint16(22, 1, true); // channels
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE, true); // byte rate = rate × channels × bytes per sample
  view.setUint16(32, 1, true); // block align
  view.setUint16(34, 8, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, SAMPLES, true);
  for (let i = 0; i < SAMPLES; i++) {
    bytes[44 + i] = Math.round(128 + 100 * Math.sin((2 * Math.PI * PITCH_HZ * i) / SAMPLE_RATE));
  }
  return bytes;
}

/** 50 ms of a 440 Hz tone, WAV, base64. */
export const TONE_WAV_BASE64 = toBase64(buildToneWav());

/** The server's icon: a small SVG as a `data:` URI (no network fetch needed to render it). */
export const ICON_SVG_DATA_URI =
  'data:image/svg+xml;base64,' +
  btoa(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2b6cb0"/>' +
      '<path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>',
  );

/** The icon list used on the server, its tools, resources and prompts. */
export const ICONS = [{ src: ICON_SVG_DATA_URI, mimeType: 'image/svg+xml', sizes: ['any'] }];
