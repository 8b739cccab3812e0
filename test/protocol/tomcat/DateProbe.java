import org.apache.tomcat.util.http.FastHttpDateFormat;
import java.io.*;
import java.nio.charset.StandardCharsets;
public class DateProbe {
  public static void main(String[] a) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = r.readLine()) != null) {
      String v = line.replace("\\t", "\t");
      System.out.println(FastHttpDateFormat.parseDate(v) + "\t" + line);
    }
  }
}
