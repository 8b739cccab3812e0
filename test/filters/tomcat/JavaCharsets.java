import java.nio.charset.Charset;

/** Test tooling: prints every charset this JVM knows, canonical name first, then its aliases, tab-separated. */
public final class JavaCharsets {
    public static void main(String[] args) {
        for (Charset c : Charset.availableCharsets().values()) {
            StringBuilder sb = new StringBuilder(c.name());
            c.aliases().stream().sorted().forEach(a -> sb.append('\t').append(a));
            System.out.println(sb);
        }
    }
}
