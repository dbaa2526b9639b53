/** Build-time settings the console reads (vite.config.ts envPrefix). */
interface ImportMetaEnv {
  /** The production server's CLIENT_SECRET, sent in the Basic header of every call. */
  readonly CLIENT_SECRET?: string;
}
