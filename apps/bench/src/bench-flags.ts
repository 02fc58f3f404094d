// The flags every bench command shares — `--help`, `--quick`, `--repetitions`, `--only`, `--no-pin`, `--out` — read in
// one place, so that `npm run bench`, `-- http`, `-- ops` and `-- filesystem` take them the same way (`--flag value` or
// `--flag=value`) and refuse the same bad input with the same words. A command's own value flags (`--against`,
// `--node`) come in through `values`.

/** The shared flags' values. */
export interface BenchFlags {
  help: boolean;
  quick: boolean;
  /** `--repetitions`, when given. */
  repetitions: number | undefined;
  /** `--only` (repeatable), split on commas, trimmed, empty items dropped. */
  only: string[];
  /** Run each driver and its server on one CPU (Linux `taskset`); `--no-pin` turns it off. */
  pin: boolean;
  out: string | undefined;
}

/** What a command accepts beyond the shared flags. */
export interface BenchFlagSpec {
  /** The largest `--repetitions` it takes. */
  readonly maxRepetitions: number;
  /** Its own flags that take a value: flag → what to do with the value (throws an Error for a bad one). */
  readonly values?: Readonly<Record<string, (value: string) => void>>;
}

/**
 * Parses argv (after the command's name). Throws an Error with a short, readable message for bad input: an unknown
 * flag (its first 60 characters), a flag without its value (or followed by another flag), a repetition count that is
 * not a whole number from 1 to `maxRepetitions`.
 */
export function parseBenchFlags(argv: readonly string[], spec: BenchFlagSpec): BenchFlags {
  const flags: BenchFlags = { help: false, quick: false, repetitions: undefined, only: [], pin: true, out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [flag, inline] = equals === -1 ? [arg, undefined] : [arg.slice(0, equals), arg.slice(equals + 1)];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '' || (inline === undefined && v.startsWith('--'))) throw new Error(`${flag} needs a value`);
      return v;
    };
    const own = Object.hasOwn(spec.values ?? {}, flag) ? spec.values![flag] : undefined;
    if (own !== undefined) {
      own(value());
      continue;
    }
    switch (flag) {
      case '--help':
      case '-h':
        flags.help = true;
        break;
      case '--quick':
        flags.quick = true;
        break;
      case '--no-pin':
        flags.pin = false;
        break;
      case '--only':
        flags.only.push(
          ...value()
            .split(',')
            .map((item) => item.trim())
            .filter((item) => item !== ''),
        );
        break;
      case '--out':
        flags.out = value();
        break;
      case '--repetitions': {
        const text = value();
        const n = Number(text);
        if (!Number.isInteger(n) || n < 1 || n > spec.maxRepetitions)
          throw new Error(`--repetitions must be an integer from 1 to ${spec.maxRepetitions}, got ${text.slice(0, 20)}`);
        flags.repetitions = n;
        break;
      }
      default:
        throw new Error(`unknown option ${arg.slice(0, 60)}`);
    }
  }
  return flags;
}
