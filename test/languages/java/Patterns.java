// The Java side of test/languages/java.test.ts: the pattern matrix (test/languages/support.ts)
// with java.util.regex and Matcher.find(), as Java's JSON Schema validators apply `pattern`.
// Reads the pattern count, the patterns, then the strings (hex of UTF-8, one per line) on
// standard input; prints one line of 1/0 per pattern.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

public class Patterns {
    static String unhex(String line) {
        String hex = line.trim();
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>();
        for (String line = in.readLine(); line != null; line = in.readLine()) lines.add(line);
        int count = Integer.parseInt(lines.get(0).trim());
        List<String> texts = new ArrayList<>();
        for (String line : lines.subList(1 + count, lines.size())) texts.add(unhex(line));
        StringBuilder out = new StringBuilder();
        for (String line : lines.subList(1, 1 + count)) {
            Pattern pattern = Pattern.compile(unhex(line));
            for (String text : texts) out.append(pattern.matcher(text).find() ? '1' : '0');
            out.append('\n');
        }
        System.out.print(out);
    }
}
