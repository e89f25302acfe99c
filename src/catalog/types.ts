// Shapes of the generated builtin catalogue (src/catalog/data.generated.ts).

export interface CatalogFunction {
  /** Every parameter name in builtins.json order: the order of `args` in a builtin impl. */
  params: string[];
  /** Parameter lists of the documented overloads. */
  lists: string[][];
  /** Documented parameter types, e.g. "series int/float", "simple int" (first overload's wording). */
  types: Record<string, string>;
  optional: string[];
  /** Possible return types, e.g. ["series float"], ["simple bool", "series bool"]. */
  returns: string[];
  /** The reference manual's description, where builtins.json has one (shown by editors' hover). */
  description?: string;
}

export interface CatalogData {
  functions: Record<string, CatalogFunction>;
  /** name -> type, e.g. "close" -> "series float". */
  variables: Record<string, string>;
  /** name -> type, e.g. "color.red" -> "const color". */
  constants: Record<string, string>;
  types: string[];
  keywords: string[];
}
