/**
 * What no log line of the test suite may hold (issue 28 item 5, decision 238): the shapes of the shop's
 * secrets. scripts/check-test-logs.ts runs it over every log file the tests wrote (test-logs.ts).
 */
export interface SecretRule {
  name: string;
  pattern: RegExp;
}

export const SECRET_RULES: SecretRule[] = [
  // Access and refresh tokens, the embedded auth's JWTs, signed links: header.payload(.signature).
  { name: 'JWT', pattern: /eyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}/ },
  { name: 'Bearer credential', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{8,}/i },
  // Recovery, magic, email-change and invite links, OAuth codes and signed file links.
  { name: 'secret in a link', pattern: /[?&#](?:token|token_hash|code|access_token|refresh_token|signature|sig)=[A-Za-z0-9._~%+/-]{6,}/ },
  // The demo logins' passwords (seed/demo-passwords.ts): `demo-` and 16 characters of base64url.
  { name: 'demo login password', pattern: /(?<![A-Za-z0-9_-])demo-[A-Za-z0-9_-]{16}(?![A-Za-z0-9_-])/ },
  // The demo inventory's delivered passwords (seed/demo-data.ts).
  { name: 'demo stock password', pattern: /\bWise#[A-Z][a-z]+20\d\d\b|\bDemo#1\d{3}\b/ },
  { name: 'service-role key', pattern: /\bsb_secret_[A-Za-z0-9]{12,}/ },
  // A partner's API key (`sk_` and 43 characters); the 8 shown to tell keys apart are not a secret.
  { name: 'API key', pattern: /\bsk_[A-Za-z0-9_-]{20,}/ },
  { name: 'webhook signing secret', pattern: /\bwhsec_[A-Za-z0-9+/=_-]{16,}/ },
  { name: 'private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----|"(?:privateKey|d)"\s*:\s*"[A-Za-z0-9_-]{40,}"|VAPID_PRIVATE_KEY=\S{20,}/ },
  // keys.json's other keys and env secrets written as NAME=value.
  { name: 'secret setting', pattern: /\b(?:CREDENTIALS_KEY|BLIND_INDEX_KEY|FILE_SIGNING_KEY|SUPABASE_SERVICE_ROLE_KEY|JWT_SECRET|METRICS_TOKEN)=\S{8,}/ },
  { name: 'password field', pattern: /"(?:password|new_password|newPassword|wise_password)"\s*:\s*"[^"]{4,}"/ },
];

/**
 * The one line decision 046 prints on purpose: the demo logins, shown once on the console of the start that
 * made them (`  admin     admin@demo.test / demo-…`), the demo reseller's with its API key after it (decision 141).
 * Nothing else with a demo password or a key passes.
 */
const DEMO_BANNER_LINE = /^ {2}(?:admin|moderator|user|reseller) +[a-z.]+@demo\.test \/ demo-[A-Za-z0-9_-]{16}(?: +API key sk_[A-Za-z0-9_-]{43})?$/;

export interface SecretFinding {
  rule: string;
  line: string;
}

/** The rules a line breaks, with the secret masked in what is reported. */
export function findSecrets(line: string): SecretFinding[] {
  if (DEMO_BANNER_LINE.test(line)) return [];
  const found: SecretFinding[] = [];
  for (const rule of SECRET_RULES) {
    const match = rule.pattern.exec(line);
    if (match) found.push({ rule: rule.name, line: maskAt(line, match.index, match[0].length) });
  }
  return found;
}

/** The line with the matched secret cut to its first 6 characters, so the report does not repeat it. */
function maskAt(line: string, at: number, length: number): string {
  const shown = line.slice(Math.max(0, at - 60), at + Math.min(6, length));
  return `${at > 60 ? '…' : ''}${shown}…[${length} chars]`;
}
