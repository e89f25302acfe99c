// API errors: every failure leaves the app as {status: "error", code, message, ...details}.

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

export function errorBody(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): Record<string, unknown> {
  return { status: "error", code, message, ...details };
}

export function errorResponse(err: ApiError): Response {
  return new Response(JSON.stringify(errorBody(err.code, err.message, err.details)), {
    status: err.status,
    headers: { "content-type": "application/json; charset=utf-8", ...err.headers },
  });
}
