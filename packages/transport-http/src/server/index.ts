// The server half of @wiremcp/transport-http; its exports are listed here as they are written.
export {};
