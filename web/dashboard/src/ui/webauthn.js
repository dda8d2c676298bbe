// Passkeys: the server sends WebAuthn options as JSON with binary values in base64url, and wants
// the credential back the way PublicKeyCredential.toJSON() serializes it. Browsers that have the
// JSON helpers use them; the conversions below cover the others.
const toBytes = (base64url) => {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((base64url.length + 3) % 4);
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
};
const toBase64url = (buffer) => {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

export const passkeysSupported = () => typeof window.PublicKeyCredential === 'function' && Boolean(navigator.credentials);

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return {
    ...json,
    challenge: toBytes(json.challenge),
    allowCredentials: (json.allowCredentials ?? []).map((item) => ({ ...item, id: toBytes(item.id) })),
  };
}

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: toBytes(json.challenge),
    user: { ...json.user, id: toBytes(json.user.id) },
    excludeCredentials: (json.excludeCredentials ?? []).map((item) => ({ ...item, id: toBytes(item.id) })),
  };
}

function serialize(credential) {
  if (typeof credential.toJSON === 'function') return credential.toJSON();
  const response = credential.response;
  const out = { id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type, response: { clientDataJSON: toBase64url(response.clientDataJSON) } };
  if (response.attestationObject) {
    out.response.attestationObject = toBase64url(response.attestationObject);
    out.response.transports = response.getTransports?.() ?? [];
  } else {
    out.response.authenticatorData = toBase64url(response.authenticatorData);
    out.response.signature = toBase64url(response.signature);
    out.response.userHandle = response.userHandle ? toBase64url(response.userHandle) : null;
  }
  return out;
}

/** Asks the authenticator to sign the server's challenge; returns the credential as JSON. */
export async function getAssertion(publicKeyJson, signal) {
  const credential = await navigator.credentials.get({ publicKey: requestOptions(publicKeyJson), signal });
  return serialize(credential);
}

/** Creates a new passkey for the server's registration options; returns the credential as JSON. */
export async function createCredential(publicKeyJson) {
  const credential = await navigator.credentials.create({ publicKey: creationOptions(publicKeyJson) });
  return serialize(credential);
}

/** A user-facing message for WebAuthn's DOMExceptions. */
export function passkeyErrorMessage(error) {
  if (error?.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.';
  if (error?.name === 'InvalidStateError') return 'This device already has a passkey for your account.';
  if (error?.name === 'SecurityError') return 'Passkeys are not available on this address.';
  return error?.message ?? String(error);
}
