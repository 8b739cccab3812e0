package probe;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Test probe, never shipped: names itself (and its init-params) in X-Probe-Servlet, reports the context's
 * session timeout, and forwards or includes when told to by the "forward" / "include" init-params,
 * so FORWARD and INCLUDE dispatches can be observed.
 */
public class ProbeServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws ServletException, IOException {
        List<String> params = new ArrayList<>();
        for (Enumeration<String> e = getInitParameterNames(); e.hasMoreElements();) {
            String k = e.nextElement();
            params.add(k + "=" + getInitParameter(k));
        }
        Collections.sort(params);
        res.addHeader("X-Probe-Servlet", getServletName() + (params.isEmpty() ? "" : "[" + String.join(",", params) + "]"));
        res.setHeader("X-Probe-Session-Timeout", String.valueOf(getServletContext().getSessionTimeout()));
        String forward = getInitParameter("forward");
        String include = getInitParameter("include");
        if (forward != null) {
            req.getRequestDispatcher(forward).forward(req, res);
        } else if (include != null) {
            req.getRequestDispatcher(include).include(req, res);
            Object included = req.getAttribute("probe.included");
            if (included != null) {
                for (Object entry : (List<?>) included) {
                    res.addHeader("X-Probe-Included", entry.toString());
                }
            }
        } else {
            res.setContentType("text/plain");
            res.getWriter().print("servlet " + getServletName() + "\n");
        }
    }
}
