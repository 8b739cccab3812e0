import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.*;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Writes the catalogue of one Tomcat version (src/catalogue/tomcat-<major.minor>.json): what its
 * digesters accept in server.xml and context files, read from Tomcat itself. The element patterns, the
 * class each creates, its className attribute, the attributes its SetPropertiesRule excludes and the type
 * the parent's add method takes come from the rules of Catalina.createStartDigester() and
 * ContextConfig.createContextDigester(), read by reflection. What an attribute can set is what
 * IntrospectionUtils.setProperty finds: a public setX(String|int|long|boolean|InetAddress) or a generic
 * setProperty(String, String); protocol handlers forward to their endpoint, which forwards "socket.*" to
 * SocketProperties. The classes an element can name are the public concrete classes of the jars that
 * implement the type its parent takes.
 *
 *   java -cp "<Tomcat's jars>" scripts/TomcatCatalogue.java <jar>... > src/catalogue/tomcat-10.1.json
 *
 * Output is deterministic (sorted keys), one JSON document.
 */
public class TomcatCatalogue {
  static final TreeMap<String, Object> out = new TreeMap<>();

  static Object field(Object o, String name) throws Exception {
    for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
      } catch (NoSuchFieldException e) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(o.getClass().getName() + "." + name);
  }

  static Object fieldOrNull(Object o, String name) {
    try {
      return field(o, name);
    } catch (Exception e) {
      return null;
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, List<Object>> rulesOf(Object digester) throws Exception {
    Object rules = digester.getClass().getMethod("getRules").invoke(digester);
    return (Map<String, List<Object>>) field(rules, "cache");
  }

  static boolean isA(Object o, String simpleName) {
    for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) if (c.getSimpleName().equals(simpleName)) return true;
    return false;
  }

  static final TreeMap<String, TreeMap<String, Object>> elements = new TreeMap<>();
  static final TreeSet<String> types = new TreeSet<>();
  static final TreeSet<String> wanted = new TreeSet<>();

  static void readDigester(Object digester, String root, String rootClass) throws Exception {
    Map<String, List<Object>> rules = rulesOf(digester);
    for (Map.Entry<String, List<Object>> en : rules.entrySet()) {
      String pattern = en.getKey();
      TreeMap<String, Object> e = elements.computeIfAbsent(pattern, k -> new TreeMap<>());
      if (pattern.equals(root) && rootClass != null) {
        e.put("create", rootClass);
        wanted.add(rootClass);
      }
      TreeSet<String> other = new TreeSet<>();
      for (Object r : en.getValue()) {
        String rn = r.getClass().getName();
        String simple = r.getClass().getSimpleName();
        if (isA(r, "ObjectCreateRule")) {
          if (!simple.equals("ObjectCreateRule")) other.add(simple);
          Object cls = field(r, "className");
          Object attr = field(r, "attributeName");
          if (cls != null) {
            e.put("create", cls);
            wanted.add((String) cls);
          } else e.put("create", null);
          if (attr != null) e.put("classAttr", attr);
        } else if (simple.equals("ConnectorCreateRule")) {
          e.put("create", "org.apache.catalina.connector.Connector");
          wanted.add("org.apache.catalina.connector.Connector");
          other.add(simple);
        } else if (simple.equals("CertificateCreateRule")) {
          e.put("create", "org.apache.tomcat.util.net.SSLHostConfigCertificate");
          wanted.add("org.apache.tomcat.util.net.SSLHostConfigCertificate");
          other.add(simple);
        } else if (isA(r, "SetPropertiesRule")) {
          e.put("props", true);
          Object ex = fieldOrNull(r, "excludes");
          TreeSet<String> names = new TreeSet<>();
          if (ex instanceof Map) for (Object k : ((Map<?, ?>) ex).keySet()) names.add((String) k);
          if (names.size() > 0) e.put("exclude", new ArrayList<>(names));
        } else if (simple.equals("SetNextRule") || simple.equals("SetNextNamingRule")) {
          Object type = field(r, "paramType");
          Object method = field(r, "methodName");
          if (type != null) {
            e.put("type", type);
            types.add((String) type);
          }
          e.put("add", method);
        } else if (simple.equals("CallMethodRule") || simple.equals("CallParamRule")) {
          e.put("body", true);
        } else other.add(simple);
      }
      if (other.size() > 0) e.put("rules", new ArrayList<>(other));
    }
  }

  /** Public concrete classes of the jars, by name. */
  static List<Class<?>> concreteClasses(List<String> jars, ClassLoader cl) throws Exception {
    List<Class<?>> out = new ArrayList<>();
    for (String jar : jars)
      try (JarFile jf = new JarFile(jar)) {
        for (Enumeration<JarEntry> e = jf.entries(); e.hasMoreElements(); ) {
          String n = e.nextElement().getName();
          if (!n.endsWith(".class") || n.contains("$") || n.endsWith("module-info.class") || n.startsWith("META-INF")) continue;
          String cn = n.substring(0, n.length() - 6).replace('/', '.');
          Class<?> c;
          try {
            c = Class.forName(cn, false, cl);
          } catch (Throwable t) {
            continue;
          }
          if (c.isInterface() || Modifier.isAbstract(c.getModifiers()) || !Modifier.isPublic(c.getModifiers())) continue;
          out.add(c);
        }
      }
    return out;
  }

  static final TreeMap<String, TreeMap<String, Object>> classes = new TreeMap<>();

  static String typeName(Class<?> t) {
    switch (t.getName()) {
      case "java.lang.String": return "string";
      case "int": case "java.lang.Integer": return "int";
      case "long": case "java.lang.Long": return "long";
      case "boolean": case "java.lang.Boolean": return "boolean";
      case "java.net.InetAddress": return "address";
      default: return "other";
    }
  }

  /** The class's own public setters (inherited ones are its superclass's entry), as IntrospectionUtils sees them. */
  static void describe(Class<?> c, ClassLoader cl) {
    for (; c != null && c != Object.class; c = c.getSuperclass()) {
      String name = c.getName();
      if (classes.containsKey(name)) return;
      TreeMap<String, Object> d = new TreeMap<>();
      classes.put(name, d);
      if (c.getSuperclass() != null && c.getSuperclass() != Object.class) d.put("super", c.getSuperclass().getName());
      if (Modifier.isAbstract(c.getModifiers())) d.put("abstract", true);
      if (c.isAnnotationPresent(Deprecated.class)) d.put("deprecatedClass", true);
      TreeSet<String> deprecated = new TreeSet<>();
      TreeMap<String, TreeSet<String>> props = new TreeMap<>();
      for (Method m : c.getDeclaredMethods()) {
        if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers()) || m.isBridge()) continue;
        String mn = m.getName();
        // IntrospectionUtils takes any method named setProperty as the generic one and calls it with (name, value).
        if (mn.equals("setProperty") && m.getParameterCount() == 2) {
          d.put("setProperty", m.getReturnType() == boolean.class ? "boolean" : "void");
          continue;
        }
        if (!mn.startsWith("set") || mn.length() < 4 || m.getParameterCount() != 1) continue;
        props.computeIfAbsent(mn.substring(3), k -> new TreeSet<>()).add(typeName(m.getParameterTypes()[0]));
        if (m.isAnnotationPresent(Deprecated.class)) deprecated.add(mn.substring(3));
      }
      // Interfaces' default setters count too (getMethods() lists them).
      for (Class<?> i : c.getInterfaces())
        for (Method m : i.getMethods()) {
          if (!m.isDefault() || !m.getName().startsWith("set") || m.getName().length() < 4 || m.getParameterCount() != 1) continue;
          props.computeIfAbsent(m.getName().substring(3), k -> new TreeSet<>()).add(typeName(m.getParameterTypes()[0]));
        }
      TreeMap<String, String> p = new TreeMap<>();
      for (Map.Entry<String, TreeSet<String>> en : props.entrySet())
        p.put(en.getKey(), en.getValue().contains("string") ? "string" : String.join("|", en.getValue()));
      d.put("props", p);
      // A setter is deprecated when every overload of it is: Tomcat removes in the next major version what it deprecates.
      for (Method m : c.getDeclaredMethods())
        if (Modifier.isPublic(m.getModifiers()) && m.getName().startsWith("set") && m.getParameterCount() == 1 && !m.isBridge() && !m.isAnnotationPresent(Deprecated.class))
          deprecated.remove(m.getName().substring(3));
      if (deprecated.size() > 0) d.put("deprecated", new ArrayList<>(deprecated));
    }
  }

  public static void main(String[] args) throws Exception {
    ClassLoader cl = TomcatCatalogue.class.getClassLoader();
    List<String> jars = Arrays.asList(args);
    String version = (String) Class.forName("org.apache.catalina.util.ServerInfo").getMethod("getServerNumber").invoke(null);
    out.put("version", version);

    Class<?> catalina = Class.forName("org.apache.catalina.startup.Catalina");
    Method csd = catalina.getDeclaredMethod("createStartDigester");
    csd.setAccessible(true);
    Object start = csd.invoke(catalina.getDeclaredConstructor().newInstance());
    readDigester(start, "Server", null);
    TreeMap<String, List<String>> fake = new TreeMap<>();
    Object fa = fieldOrNull(start, "fakeAttributes");
    if (fa instanceof Map)
      for (Map.Entry<?, ?> en : ((Map<?, ?>) fa).entrySet()) {
        List<String> l = new ArrayList<>();
        for (Object o : (List<?>) en.getValue()) l.add((String) o);
        Collections.sort(l);
        fake.put(((Class<?>) en.getKey()).getName(), l);
      }
    out.put("fakeAttributes", fake);

    Class<?> cc = Class.forName("org.apache.catalina.startup.ContextConfig");
    Method ccd = cc.getDeclaredMethod("createContextDigester");
    ccd.setAccessible(true);
    Object context = ccd.invoke(cc.getDeclaredConstructor().newInstance());
    readDigester(context, "Context", "org.apache.catalina.core.StandardContext");

    // Classes that implement each type a parent's add method takes, and every protocol handler.
    List<Class<?>> all = concreteClasses(jars, cl);
    types.add("org.apache.coyote.ProtocolHandler");
    TreeMap<String, List<String>> kinds = new TreeMap<>();
    for (String t : types) {
      Class<?> tc;
      try {
        tc = Class.forName(t, false, cl);
      } catch (Throwable x) {
        continue;
      }
      TreeSet<String> names = new TreeSet<>();
      if (tc == Object.class || tc == String.class) continue;
      for (Class<?> c : all) if (tc.isAssignableFrom(c)) names.add(c.getName());
      kinds.put(t, new ArrayList<>(names));
      wanted.addAll(names);
    }
    out.put("kinds", kinds);

    // Each protocol handler's endpoint (setProperty forwards to it) and the protocol names Connector maps.
    TreeMap<String, String> endpoints = new TreeMap<>();
    Class<?> ph = Class.forName("org.apache.coyote.ProtocolHandler");
    for (String p : kinds.get("org.apache.coyote.ProtocolHandler")) {
      try {
        Object handler = Class.forName(p).getDeclaredConstructor().newInstance();
        Method ge = Class.forName("org.apache.coyote.AbstractProtocol").getDeclaredMethod("getEndpoint");
        ge.setAccessible(true);
        Object ep = ge.invoke(handler);
        endpoints.put(p, ep.getClass().getName());
        wanted.add(ep.getClass().getName());
      } catch (Throwable t) {
        // a handler Tomcat cannot create here (APR without the native library): no endpoint recorded
      }
    }
    out.put("endpoints", endpoints);
    wanted.add("org.apache.tomcat.util.net.SocketProperties");
    TreeMap<String, String> aliases = new TreeMap<>();
    for (String p : new String[] {"HTTP/1.1", "AJP/1.3"}) {
      Object h = null;
      for (Method m : ph.getMethods())
        if (m.getName().equals("create") && Modifier.isStatic(m.getModifiers()))
          h = m.getParameterCount() == 1 ? m.invoke(null, p) : m.invoke(null, p, false);
      if (h != null) aliases.put(p, h.getClass().getName());
    }
    out.put("protocols", aliases);

    for (String w : new TreeSet<>(wanted)) {
      try {
        describe(Class.forName(w, false, cl), cl);
      } catch (Throwable t) {
        // named by a rule but not in the jars
      }
    }
    out.put("elements", elements);
    out.put("classes", classes);
    StringBuilder sb = new StringBuilder();
    json(sb, out, 0);
    System.out.print(sb.append('\n'));
  }

  static void json(StringBuilder sb, Object o, int depth) {
    if (o == null) sb.append("null");
    else if (o instanceof Boolean) sb.append(o);
    else if (o instanceof String) str(sb, (String) o);
    else if (o instanceof Map) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> en : ((Map<?, ?>) o).entrySet()) {
        if (!first) sb.append(',');
        first = false;
        if (depth < 2) sb.append('\n').append("  ".repeat(depth + 1));
        str(sb, (String) en.getKey());
        sb.append(':');
        json(sb, en.getValue(), depth + 1);
      }
      if (depth < 2 && !first) sb.append('\n').append("  ".repeat(depth));
      sb.append('}');
    } else if (o instanceof List) {
      sb.append('[');
      boolean first = true;
      for (Object x : (List<?>) o) {
        if (!first) sb.append(',');
        first = false;
        json(sb, x, depth + 1);
      }
      sb.append(']');
    } else throw new IllegalStateException(o.getClass().getName());
  }

  static void str(StringBuilder sb, String s) {
    sb.append('"');
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') sb.append('\\').append(ch);
      else if (ch < 0x20) sb.append(String.format("\\u%04x", (int) ch));
      else sb.append(ch);
    }
    sb.append('"');
  }
}
