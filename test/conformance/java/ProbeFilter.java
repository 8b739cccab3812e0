package probe;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Test probe, never shipped: each instance appends "name[k=v,...]@DISPATCHER" to the X-Probe-Order
 * response header, so the order Tomcat runs filters in (and the init-params each one got) is visible.
 * The first probe of each dispatch also records the path Tomcat matched filters against and the
 * servlet mapping it chose, in X-Probe-Dispatch.
 */
public class ProbeFilter implements Filter {
    private static final String PATH_ATTR = "org.apache.catalina.core.DISPATCHER_REQUEST_PATH";
    private String label;

    @Override
    public void init(FilterConfig config) {
        List<String> params = new ArrayList<>();
        for (Enumeration<String> e = config.getInitParameterNames(); e.hasMoreElements();) {
            String k = e.nextElement();
            params.add(k + "=" + config.getInitParameter(k));
        }
        Collections.sort(params);
        label = config.getFilterName() + (params.isEmpty() ? "" : "[" + String.join(",", params) + "]");
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String type = req.getDispatcherType().name();
        Object path = req.getAttribute(PATH_ATTR);
        String key = "probe.dispatch." + type + "." + path;
        if (req.getAttribute(key) == null) {
            req.setAttribute(key, Boolean.TRUE);
            HttpServletMapping m = request.getHttpServletMapping();
            response.addHeader("X-Probe-Dispatch", type + " " + path + " " + m.getServletName() + " "
                    + m.getMappingMatch() + " '" + m.getPattern() + "'");
        }
        response.addHeader("X-Probe-Order", label + "@" + type);
        if (req.getDispatcherType() == jakarta.servlet.DispatcherType.INCLUDE) {
            // An included resource cannot set headers: ProbeServlet reports these after the include returns.
            @SuppressWarnings("unchecked")
            List<String> included = (List<String>) req.getAttribute("probe.included");
            if (included == null) {
                included = new ArrayList<>();
                req.setAttribute("probe.included", included);
            }
            included.add(label + "@" + type + " " + path);
        }
        chain.doFilter(req, res);
    }
}
