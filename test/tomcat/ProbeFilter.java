package probe;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Test probe: records its filter name (and its "probe" init-param) in a response header, so chain order is visible. */
public class ProbeFilter implements Filter {
    private String label;

    @Override
    public void init(FilterConfig config) {
        String probe = config.getInitParameter("probe");
        label = config.getFilterName() + (probe == null ? "" : "=" + probe);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        String type = req.getDispatcherType().name();
        ((HttpServletResponse) res).addHeader("X-Probe-Order", label + "@" + type);
        chain.doFilter(req, res);
    }
}
