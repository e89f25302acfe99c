// Module shapes Vite provides (asset URLs, CSS side-effect imports) for the type checker.
declare module "*?url" {
  const url: string;
  export default url;
}
declare module "*.css";
declare module "*?raw" {
  const text: string;
  export default text;
}
