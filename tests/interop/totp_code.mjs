// Prints the TOTP code of a base32 secret, computed by otplib (an implementation from npm that
// no one here wrote), for the end-to-end tests of two-factor authentication.
// Usage: node totp_code.mjs SECRET [UNIX_SECONDS]   (default: now)
import { generate } from "otplib";

const [secret, at] = process.argv.slice(2);
const epoch = at === undefined ? Math.floor(Date.now() / 1000) : Number(at);
process.stdout.write((await generate({ secret, epoch })) + "\n");
