import {
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's low-level server, but a request whose params do not match the method's schema is
 * -32602 (invalid params), as JSON-RPC says. The SDK (2.4.0) validates the handlers it registers
 * itself (`initialize`, `ping`) by throwing a plain `Error` with the validator's message, which it
 * then answers as -32603 (internal error). Its own faults are SdkError, ProtocolError or other
 * Error subclasses, and keep their codes. test/edges/mcp-protocol.test.ts pins this down.
 */
export class ApiServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (err) {
        if (err instanceof Error && err.constructor === Error) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${err.message}`);
        }
        throw err;
      }
    };
  }
}
