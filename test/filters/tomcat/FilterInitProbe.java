package probe;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;

/**
 * Test tooling, never shipped: initialises Tomcat's own filter classes with
 * given init-params and reports whether init succeeded and what Tomcat logged
 * at WARNING or above. One case per stdin line:
 * {@code SimpleName<TAB>name<TAB>value...}, with \t, \n and \\ escaped.
 * One result line per case: {@code OK|FAIL<TAB>message<TAB>warnings}.
 */
public final class FilterInitProbe {

    private static final List<String> warnings = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        Logger root = Logger.getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        root.addHandler(new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(r.getMessage() == null ? "" : r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\t", -1);
            Map<String, String> params = new HashMap<>();
            for (int i = 1; i + 1 < parts.length; i += 2) {
                params.put(unescape(parts[i]), unescape(parts[i + 1]));
            }
            warnings.clear();
            String verdict;
            String message = "";
            try {
                Filter f = (Filter) Class.forName("org.apache.catalina.filters." + parts[0]).getConstructor().newInstance();
                f.init(config(parts[0], params));
                verdict = "OK";
            } catch (Throwable t) {
                verdict = "FAIL";
                StringBuilder sb = new StringBuilder();
                for (Throwable c = t; c != null; c = c.getCause()) {
                    if (sb.length() > 0) {
                        sb.append(" <- ");
                    }
                    sb.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage());
                }
                message = sb.toString();
            }
            System.out.println(verdict + "\t" + escape(message) + "\t" + escape(String.join("\u001f", warnings)));
        }
        System.out.flush();
        // RateLimitFilter starts a non-daemon timer thread that would keep the JVM alive.
        System.exit(0);
    }

    private static FilterConfig config(String name, Map<String, String> params) {
        ServletContext context = (ServletContext) Proxy.newProxyInstance(FilterInitProbe.class.getClassLoader(),
                new Class<?>[] { ServletContext.class }, (proxy, method, a) -> null);
        return new FilterConfig() {
            @Override
            public String getFilterName() {
                return name;
            }

            @Override
            public ServletContext getServletContext() {
                return context;
            }

            @Override
            public String getInitParameter(String n) {
                return params.get(n);
            }

            @Override
            public Enumeration<String> getInitParameterNames() {
                return Collections.enumeration(params.keySet());
            }
        };
    }

    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                sb.append(n == 't' ? '\t' : n == 'n' ? '\n' : n);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "");
    }
}
