// What the edge worker's fanned-out studies (src/edge/studies.ts) need bound, for both providers: the
// StudyCoordinator Durable Object (STUDIES) and a service binding of the worker to itself (EVALUATE),
// through which a coordinator sends each batch of trials as a separate invocation. R2 (RESIN_BARS)
// is bound already for the bars.

/** The Durable Object class the edge bundle exports for studies. */
export const STUDY_CLASS = "StudyCoordinator";

/** wrangler.toml entries: the binding, its class's migration (SQLite-backed: Workers Free allows only those), the self binding. */
export function fanoutWrangler(worker: string): {
  durable_objects: { bindings: { name: string; class_name: string }[] };
  migrations: { tag: string; new_sqlite_classes: string[] }[];
  services: { binding: string; service: string }[];
} {
  return {
    durable_objects: { bindings: [{ name: "STUDIES", class_name: STUDY_CLASS }] },
    migrations: [{ tag: "studies-v1", new_sqlite_classes: [STUDY_CLASS] }],
    services: [{ binding: "EVALUATE", service: worker }],
  };
}

/** Miniflare options: the same bindings, the object's storage persisted beside the workspace's others. */
export function fanoutMiniflare(
  worker: string,
  persistDir: string,
): { durableObjects: Record<string, string>; durableObjectsPersist: string; serviceBindings: Record<string, string> } {
  return {
    durableObjects: { STUDIES: STUDY_CLASS },
    durableObjectsPersist: persistDir,
    serviceBindings: { EVALUATE: worker },
  };
}
