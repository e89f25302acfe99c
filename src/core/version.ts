/** The package version, reported by /health and `resin --version`. */
export const VERSION = "0.1.0";
export const SERVICE_NAME = "resin";
