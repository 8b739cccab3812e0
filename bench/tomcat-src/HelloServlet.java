package bench;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** The benchmark's downstream handler on Tomcat: the same five bytes the Node handlers write. */
public class HelloServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.setContentType("text/plain");
        res.getOutputStream().write(HELLO);
    }

    private static final byte[] HELLO = { 'h', 'e', 'l', 'l', 'o' };
}
