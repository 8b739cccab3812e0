/**
 * What Tomcat's HttpServlet answers for a request method it has no handler for
 * (anything but GET, HEAD, POST, PUT, DELETE, OPTIONS, TRACE): 501 with this
 * message (LocalStrings http.method_not_implemented, observed on 10.1.60 for
 * PATCH), after which the connector closes the connection. The default servlet
 * and the host manager both answer it.
 */
export const METHOD_NOT_IMPLEMENTED_STATUS = 501;

export function methodNotImplementedMessage(method: string): string {
  return `Method [${method}] is not implemented by this Servlet for this URI`;
}
