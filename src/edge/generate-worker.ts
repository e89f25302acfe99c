// The workerd entry of the script-writing worker (issue 23): POST /generate and GET /health only,
// apart from the evaluate worker (worker.ts) as the service design asks. It shares the HTTP app's
// route module (validation, error codes, free tier) and verifies what it writes in-process, so it
// needs kernels.wasm like the evaluate worker. The model endpoint comes from the worker's vars and
// secrets: RESIN_LLM_BASE_URL, RESIN_LLM_MODEL, RESIN_LLM_API_KEY; without them it uses the offline
// grammar.

// @ts-expect-error -- resolved by the edge bundler to the CompiledWasm module "./kernels.wasm".
import kernels from "resin:kernels.wasm";
import { setKernelModule } from "../kernels/index.js";
import { generateApp } from "./generate-app.js";

setKernelModule(kernels as WebAssembly.Module);

export default {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response> | Response {
    return generateApp(env).fetch(request, env);
  },
};
