#pragma once

// Real-shaped secrets and look-alikes that are not secrets, for the secret detector's unit
// tests and the gate's end-to-end tests (doc/secrets.md). The values are fakes of the right
// shape, generated here from a fixed seed rather than written out, so that no literal in the
// repository looks like a live credential to a scanner; a few look-alikes are the providers'
// own documented examples.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gv::test {

struct CorpusEntry {
  std::string name;
  std::string text;  // one line, or a few for a private key; no trailing newline
  std::string kind;  // what the detector must name; empty for a look-alike
};

// `length` characters of `alphabet`, from a linear congruential generator seeded with `seed`:
// the same fake every run.
inline std::string fake(std::string_view alphabet, std::size_t length, std::uint64_t seed) {
  std::string out;
  std::uint64_t state = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (std::size_t i = 0; i < length; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    out += alphabet[(state >> 33) % alphabet.size()];
  }
  return out;
}

inline constexpr std::string_view k_alnum =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
inline constexpr std::string_view k_letters =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
inline constexpr std::string_view k_upper32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
inline constexpr std::string_view k_hex = "0123456789abcdef";
inline constexpr std::string_view k_base64 =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
inline constexpr std::string_view k_urlsafe =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
inline constexpr std::string_view k_digits = "0123456789";

// Lines of base64 key material, 64 characters each.
inline std::string key_lines(std::size_t lines, std::uint64_t seed) {
  std::string out;
  for (std::size_t i = 0; i < lines; ++i) {
    out += fake(k_base64, 64, seed + i) + "\n";
  }
  return out;
}

// Joins prefix pieces, so that no provider prefix stands next to its body in the source.
inline std::string cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (const std::string_view part : parts) {
    out += part;
  }
  return out;
}

// At least 30 secrets of the shapes people leak: cloud keys, provider tokens, private keys,
// JSON web tokens, connection strings and passwords.
inline std::vector<CorpusEntry> secret_corpus() {
  const std::string pem_type = "PRIVATE KEY";
  return {
      {"AWS access key id", cat({"aws_access_key_id = ", "AK", "IA", fake(k_upper32, 16, 1)}),
       "AWS access key"},
      {"AWS secret access key", cat({"aws_secret_access_key = ", fake(k_base64, 40, 2)}),
       "AWS secret access key"},
      {"AWS session key id", cat({"export AWS_ACCESS_KEY_ID=", "AS", "IA", fake(k_upper32, 16, 3)}),
       "AWS access key"},
      {"GitHub classic token",
       cat({"git clone https://", "gh", "p_", fake(k_alnum, 36, 4), "@github.com/org/repo.git"}),
       "GitHub token"},
      {"GitHub fine-grained token",
       cat({"token: ", "github", "_pat_", fake(k_alnum, 22, 5), "_", fake(k_alnum, 59, 6)}),
       "GitHub token"},
      {"GitHub OAuth token", cat({"GH_OAUTH=", "gh", "o_", fake(k_alnum, 36, 7)}), "GitHub token"},
      {"GitHub app token", cat({"installation token ", "gh", "s_", fake(k_alnum, 36, 8)}),
       "GitHub token"},
      {"GitLab personal token", cat({"CI_TOKEN=", "gl", "pat-", fake(k_urlsafe, 20, 9)}),
       "GitLab token"},
      {"GitLab runner token", cat({"runner token ", "gl", "rt-", fake(k_alnum, 24, 10)}),
       "GitLab token"},
      {"Slack bot token",
       cat({"SLACK_BOT_TOKEN=", "xo", "xb-", fake(k_digits, 11, 11), "-", fake(k_digits, 13, 12),
            "-", fake(k_alnum, 24, 13)}),
       "Slack token"},
      {"Slack user token",
       cat({"slack: ", "xo", "xp-", fake(k_digits, 12, 14), "-", fake(k_digits, 12, 15), "-",
            fake(k_digits, 13, 61), "-", fake(k_hex, 32, 16)}),
       "Slack token"},
      {"Slack webhook",
       cat({"webhook https://hooks.", "slack.com/services/T", fake(k_upper32, 8, 17), "/B",
            fake(k_upper32, 10, 18), "/", fake(k_alnum, 24, 19)}),
       "Slack webhook"},
      {"Stripe live key", cat({"stripe.api_key = \"", "sk", "_live_", fake(k_alnum, 24, 20), "\""}),
       "Stripe key"},
      {"Stripe restricted key", cat({"STRIPE_RK=", "rk", "_live_", fake(k_alnum, 24, 21)}),
       "Stripe key"},
      {"OpenAI project key",
       cat({"OPENAI_API_KEY=", "sk", "-proj-", fake(k_urlsafe, 74, 22), "T3Blb", "kFJ",
            fake(k_urlsafe, 74, 62)}),
       "OpenAI API key"},
      {"OpenAI legacy key",
       cat({"openai.api_key = '", "sk", "-", fake(k_alnum, 20, 23), "T3Blb", "kFJ",
            fake(k_alnum, 20, 63), "'"}),
       "OpenAI API key"},
      {"Anthropic key",
       cat({"ANTHROPIC_API_KEY=", "sk", "-ant-api03-", fake(k_urlsafe, 93, 24), "AA"}),
       "Anthropic API key"},
      {"Google API key", cat({"maps key ", "AI", "za", fake(k_urlsafe, 35, 25)}), "Google API key"},
      {"Google OAuth client secret",
       cat({"\"client_secret\": \"", "GOC", "SPX-", fake(k_urlsafe, 28, 26), "\""}),
       "Google OAuth client secret"},
      {"npm token", cat({"//registry.npmjs.org/:_authToken=", "np", "m_", fake(k_alnum, 36, 27)}),
       "npm token"},
      {"PyPI token", cat({"password = ", "py", "pi-AgEIcHlwaS5vcmc", fake(k_urlsafe, 70, 28)}),
       "PyPI token"},
      {"Hugging Face token", cat({"HF_TOKEN=", "h", "f_", fake(k_letters, 34, 29)}),
       "Hugging Face token"},
      {"SendGrid key",
       cat({"SENDGRID=", "S", "G.", fake(k_urlsafe, 22, 30), ".", fake(k_urlsafe, 43, 31)}),
       "SendGrid API key"},
      {"DigitalOcean token", cat({"doctl auth init -t ", "dop", "_v1_", fake(k_hex, 64, 32)}),
       "DigitalOcean token"},
      {"Shopify token", cat({"X-Shopify-Access-Token: ", "shp", "at_", fake(k_hex, 32, 33)}),
       "Shopify token"},
      {"Docker Hub token",
       cat({"docker login -u ci -p ", "dckr", "_pat_", fake(k_urlsafe, 27, 34)}),
       "Docker Hub token"},
      {"HashiCorp Vault token", cat({"VAULT_TOKEN=", "hv", "s.", fake(k_urlsafe, 90, 35)}),
       "HashiCorp Vault token"},
      {"Twilio API key", cat({"twilio key ", "S", "K", fake(k_hex, 32, 36)}), "Twilio API key"},
      {"Telegram bot token",
       cat({"TELEGRAM_BOT_TOKEN=", fake("123456789", 10, 37), ":A", "A", fake(k_urlsafe, 33, 38)}),
       "Telegram bot token"},
      {"RSA private key (PEM)",
       cat({"-----BEGIN RSA ", pem_type, "-----\n", key_lines(6, 39), "-----END RSA ", pem_type,
            "-----"}),
       "private key"},
      {"OpenSSH private key",
       cat({"-----BEGIN OPENSSH ", pem_type, "-----\n", key_lines(5, 40), "-----END OPENSSH ",
            pem_type, "-----"}),
       "private key"},
      {"private key in a service account file",
       cat({"  \"private_key\": \"-----BEGIN ", pem_type, "-----\\n", fake(k_base64, 64, 41), "\\n",
            fake(k_base64, 64, 42), "\\n-----END ", pem_type, "-----\\n\","}),
       "private key"},
      {"PGP private key block",
       cat({"-----BEGIN PGP ", pem_type, " BLOCK-----\n\n", key_lines(4, 43), "-----END PGP ",
            pem_type, " BLOCK-----"}),
       "private key"},
      {"JSON web token",
       cat({"cookie session=", "ey", "J", fake(k_urlsafe, 30, 44), ".", "ey", "J",
            fake(k_urlsafe, 60, 45), ".", fake(k_urlsafe, 43, 46)}),
       "JSON web token"},
      {"Postgres URL with a password",
       cat({"DATABASE_URL=postgres://app:", fake(k_alnum, 16, 47), "@db.internal:5432/app"}),
       "password in a URL"},
      {"MongoDB URL with a password",
       cat({"mongodb+srv://admin:", fake(k_alnum, 14, 48), "@cluster0.mongodb.net/prod"}),
       "password in a URL"},
      {"Redis URL with a password", cat({"redis://:", fake(k_alnum, 20, 49), "@cache:6379/0"}),
       "password in a URL"},
      {"JDBC password parameter",
       cat({"jdbc:mysql://db:3306/app?user=root&password=", fake(k_alnum, 12, 50), "&useSSL=true"}),
       "password assignment"},
      {"password in a .env file", cat({"DB_PASSWORD=", fake(k_alnum, 14, 51), "!x"}),
       "password assignment"},
      {"password in YAML", cat({"  password: \"", fake(k_alnum, 9, 52), "#", "\""}),
       "password assignment"},
      {"connection string password",
       cat({"Server=tcp:sql.internal,1433;User ID=app;Password=", fake(k_alnum, 14, 53),
            ";Encrypt=true"}),
       "password assignment"},
      {"Azure storage connection string",
       cat({"DefaultEndpointsProtocol=https;AccountName=prod;AccountKey=", fake(k_base64, 86, 54),
            "==;EndpointSuffix=core.windows.net"}),
       "Azure storage key"},
      {"bearer token in a curl line",
       cat({"curl -H 'Authorization: Bearer ", fake(k_alnum, 40, 55), "' https://api.internal/v1"}),
       "bearer token"},
      {"bearer token in prose",
       cat({"then send Bearer ", fake(k_alnum, 32, 56), " with each call"}), "bearer token"},
      {"basic auth header", cat({"Authorization: Basic ", fake(k_base64, 28, 57), "=="}),
       "secret assignment"},
      {"client secret", cat({"client_secret = \"", fake(k_alnum, 32, 58), "\""}),
       "secret assignment"},
      {"Django secret key",
       cat({"SECRET_KEY = '", fake(k_alnum, 20, 59), "$", fake(k_alnum, 20, 60), "'"}),
       "secret assignment"},
  };
}

// At least 30 things that look like secrets and are not: placeholders, variables, templates,
// hashes, ids, public keys, the providers' documented examples, prose about secrets, and real
// shapes marked as documented examples.
inline std::vector<CorpusEntry> lookalike_corpus() {
  const std::string marker = "git-vault:allow-secret";
  return {
      {"angle-bracket placeholder", "GITHUB_TOKEN=<your-token>", ""},
      {"shell variable", "API_KEY=${API_KEY}", ""},
      {"bare shell variable", "Authorization: Bearer $TOKEN", ""},
      {"CI template", "token: \"{{ secrets.GITHUB_TOKEN }}\"", ""},
      {"Jinja template", "client_secret: {{ vault_client_secret }}", ""},
      {"changeme", "password: changeme", ""},
      {"empty password", "password = \"\"", ""},
      {"null password", "\"password\": null", ""},
      {"password from the environment", "password=${DB_PASSWORD}", ""},
      {"key read from the environment", "api_key = os.environ[\"API_KEY\"]", ""},
      {"secret from settings", "secret = settings.SECRET_KEY", ""},
      {"function call", "token = get_token()", ""},
      {"number named like a token", "token_count: 412", ""},
      {"long identifier", "const accessTokenRefreshInterval = 3600;", ""},
      {"auth method", "auth_method: oauth2", ""},
      {"AWS documented key id", cat({"aws_access_key_id = ", "AKIAIOSFODNN7", "EXAMPLE"}), ""},
      {"AWS documented secret",
       cat({"aws_secret_access_key = ", "wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "EXAMPLEKEY"}), ""},
      {"masked Stripe key", cat({"sk", "_live_", std::string(24, 'x')}), ""},
      {"Slack token placeholder", cat({"xo", "xb-your-bot-token-here"}), ""},
      {"git commit id", cat({"Fixed in commit ", fake(k_hex, 40, 101), "."}), ""},
      {"SHA-256 digest", cat({"sha256: ", fake(k_hex, 64, 102)}), ""},
      {"container image digest", cat({"image: nginx@sha256:", fake(k_hex, 64, 103)}), ""},
      {"ETag", cat({"ETag: \"", fake(k_hex, 40, 104), "\""}), ""},
      {"npm integrity", cat({"\"integrity\": \"sha512-", fake(k_base64, 86, 105), "==\""}), ""},
      {"UUID", "session: 3f9c2a10-8b4e-4c3d-9a1f-6e2d5c7b8a90", ""},
      {"working-memory id", "- Prefers tabs over spaces ^tr0123456789", ""},
      {"memory link", "See [[MEM-2024-05-01-001-rotate-aws-keys]] first.", ""},
      {"base64 of ordinary text",
       "Encoded greeting: SGVsbG8sIHRoaXMgaXMgb3JkaW5hcnkgdGV4dCBpbiBiYXNlNjQ=", ""},
      {"ssh public key",
       cat({"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI", fake(k_base64, 43, 106), " dev@laptop"}), ""},
      {"public key block",
       cat({"-----BEGIN PUBLIC KEY-----\n", key_lines(4, 107), "-----END PUBLIC KEY-----"}), ""},
      {"prose about a private key header",
       cat({"A PEM key file starts with -----BEGIN RSA ", "PRIVATE KEY",
            "----- and stays out of git."}),
       ""},
      {"prose about token prefixes",
       cat({"GitHub tokens start with ", "gh", "p_ and GitLab tokens with ", "gl", "pat-."}), ""},
      {"prose about JSON web tokens", "A JWT header begins with eyJ, the base64 of {\".", ""},
      {"kebab-case option after sk-",
       cat({"pass --", "sk", "-sparse-matrix-decomposition-helper-module to it"}), ""},
      {"URL with a placeholder password", "postgres://user:password@localhost/db", ""},
      {"URL with the local default password", "postgres://postgres:postgres@localhost:5432/app",
       ""},
      {"URL with a user and no password", "https://deploy@github.com/org/repo.git", ""},
      {"URL with a query string", "http://localhost:8080/api?page=2&limit=50", ""},
      {"version string", "version: v1.24.3-rc.2+build.5678", ""},
      {"CSS colours", "color: #4f46e5; background: #0f172a;", ""},
      {"documented example on its line",
       cat({"aws_access_key_id = ", "AK", "IA", fake(k_upper32, 16, 108), "  <!-- ", marker,
            " -->"}),
       ""},
      {"documented example in a marked code block",
       cat({"```ini ", marker, "\n", "password = ", fake(k_alnum, 12, 109), "!\n", "token = ", "gh",
            "p_", fake(k_alnum, 36, 110), "\n```"}),
       ""},
  };
}

}  // namespace gv::test
