// A live table's two codes (issue 32): what one phone's WebRTC connection needs of the other's, and nothing else.
// From a local session description (the SDP text the browser made, never edited) it takes the ICE username fragment
// and password, the DTLS certificate's SHA-256 fingerprint, the data channel's mid, the setup role and at most two of
// its addresses (host or mDNS candidates over UDP: TCP ones are dropped, and a second IPv6 address of the same
// phone), packs them with a join id into a few bytes written as base64url, for a link's fragment (`#j=` the Host's
// join code, `#a=` a player's answer); and from those fields it writes the other phone's whole session description
// (one m=application section, a data channel) for setRemoteDescription. Unpacking reads a code as untrusted input:
// every field is checked, and a bad one is refused in words. Pure: tested under Node (tests/js/signal.test.mjs).
//
// A code's bytes (version 1):
//   version 1 | flags: bit 0 an answer (else an offer), bits 1-2 the setup role (0 actpass, 1 active, 2 passive)
//   join id: 4 bytes | ufrag: length, ASCII | pwd: length, ASCII | fingerprint: 32 bytes | mid: length, ASCII
//   addresses: a count (1 or 2), then each: kind (4 IPv4: 4 bytes, 6 IPv6: 16 bytes, 1 an mDNS name
//   <uuid>.local: the uuid's 16 bytes), port (2 bytes, big-endian)

export const VERSION = 1;
/** The most characters a whole link to a code may hold (origin, path and fragment), as the issue asks. */
export const LINK_CHARS = 300;
/** The words of the address that open a code: the Host's join code, and a player's answer to it. */
export const CODE_WORDS = { j: 'offer', a: 'answer' };
export const WORD_OF = { offer: 'j', answer: 'a' };
/** The ranges each text field may take (RFC 8839: ufrag 4 to 256 ice-chars, pwd 22 to 256; Chromium and Safari make
 * 4 and 24, Firefox 8 and 32): narrower here, so that a code of the longest fields still makes a whole link of at
 * most LINK_CHARS on a GitHub Pages address of some 60 characters. */
export const UFRAG = { min: 4, max: 16 };
export const PWD = { min: 22, max: 48 };
export const MID = { min: 1, max: 16 };
export const MOST_ADDRESSES = 2;
const FINGERPRINT_BYTES = 32;
const JOIN_BYTES = 4;
const SETUPS = ['actpass', 'active', 'passive'];
const ICE_CHARS = /^[A-Za-z0-9+/]*$/;
const MID_CHARS = /^[A-Za-z0-9_.-]*$/;
const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;
const KIND = { ipv4: 4, ipv6: 6, mdns: 1 };
const KIND_BYTES = { 4: 4, 6: 16, 1: 16 };

/** A code refused: `message` says which field and what it may be. */
export class CodeError extends Error {}

// --- reading a local description -----------------------------------------------------------------------------------

/** The one value of attribute `name` (`a=name:value`) in `lines`, or undefined. */
const attribute = (lines, name) => lines.find((l) => l.startsWith(`a=${name}:`))?.slice(name.length + 3);

/** The fields of the local description `sdp` (this phone's, as the browser made it) that the other phone needs:
 * {type, setup, ufrag, pwd, fingerprint (32 bytes), mid, addresses}. Throws in words when the browser's description
 * lacks one (no address at all: this phone is on no network the other could reach). */
export function fieldsOf(type, sdp) {
  if (type !== 'offer' && type !== 'answer') throw new CodeError(`a code is an offer or an answer, got ${type}`);
  const lines = String(sdp).split(/\r?\n/);
  const m = lines.findIndex((l) => l.startsWith('m=application '));
  if (m < 0) throw new CodeError('this browser’s description has no data channel (m=application)');
  const session = lines.slice(0, m);
  const media = lines.slice(m);
  const pick = (name) => attribute(media, name) ?? attribute(session, name);
  const fields = {
    type,
    setup: pick('setup'),
    ufrag: pick('ice-ufrag'),
    pwd: pick('ice-pwd'),
    fingerprint: fingerprintBytes(pick('fingerprint')),
    mid: pick('mid'),
    addresses: chosenAddresses(media.filter((l) => l.startsWith('a=candidate:'))),
  };
  if (!fields.addresses.length) {
    throw new CodeError('this phone has no address another phone can reach: join a Wi-Fi or the Host’s hotspot');
  }
  check(fields);
  return fields;
}

/** The 32 bytes of an `a=fingerprint:sha-256 AB:CD:…` value; another hash is refused. */
function fingerprintBytes(value) {
  const m = /^sha-256 ((?:[0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2})$/.exec(value?.trim() ?? '');
  if (!m) throw new CodeError('this browser’s description has no SHA-256 fingerprint');
  return Uint8Array.from(m[1].split(':'), (hex) => Number.parseInt(hex, 16));
}

/** At most MOST_ADDRESSES of the candidate lines' addresses, in their order: host candidates over UDP only (a TCP
 * candidate, a relayed or reflexive one, is dropped), one IPv6 address at most (a phone lists its temporary
 * addresses too: the same interface), never the same address twice; [{kind, address, port}]. */
export function chosenAddresses(candidateLines) {
  const out = [];
  for (const line of candidateLines) {
    // a=candidate:foundation component transport priority address port typ type ...
    const [, component, transport, , address, port, typ, type] = line.slice('a=candidate:'.length).split(/\s+/);
    if (component !== '1' || transport?.toLowerCase() !== 'udp' || typ !== 'typ' || type !== 'host') continue;
    const kind = kindOf(address);
    const p = Number(port);
    if (!kind || !Number.isInteger(p) || p < 1 || p > 65535) continue;
    // one spelling of each address: an mDNS name in small letters, an IPv6 address as RFC 5952 writes it
    const spelled = kind === 'mdns' ? address.toLowerCase() : kind === 'ipv6' ? ipv6Text(ipv6Bytes(address)) : address;
    if (kind === 'ipv6' && out.some((a) => a.kind === 'ipv6')) continue;
    if (out.some((a) => a.address === spelled)) continue;
    out.push({ kind, address: spelled, port: p });
    if (out.length === MOST_ADDRESSES) break;
  }
  return out;
}

/** 'ipv4', 'ipv6' or 'mdns' for an address a code can carry; null for anything else (a link-local IPv6 address, which
 * needs its interface named, included). */
function kindOf(address) {
  if (!address) return null;
  if (UUID.test(address)) return 'mdns';
  if (ipv4Bytes(address)) return 'ipv4';
  if (ipv6Bytes(address) && !/^fe[89ab]/i.test(address)) return 'ipv6';
  return null;
}

function ipv4Bytes(text) {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return Uint8Array.from(parts, Number);
}

function ipv6Bytes(text) {
  if (!/^[0-9A-Fa-f:]+$/.test(text) || text.split('::').length > 2) return null;
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const groups = (s) => (s ? s.split(':') : []);
  const before = groups(head);
  const after = groups(tail);
  const missing = 8 - before.length - after.length;
  if (tail === null ? missing !== 0 : missing < 1) return null;
  const all = [...before, ...Array(tail === null ? 0 : missing).fill('0'), ...after];
  if (!all.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return null;
  return Uint8Array.from(all.flatMap((g) => [Number.parseInt(g, 16) >> 8, Number.parseInt(g, 16) & 255]));
}

/** An IPv6 address's 16 bytes as RFC 5952 writes them: small letters, no leading zeros, the longest run of two or
 * more zero groups (the first of equal ones) as "::". */
function ipv6Text(bytes) {
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  let best = { at: -1, n: 1 };
  for (let at = 0; at < 8; at++) {
    let n = 0;
    while (at + n < 8 && groups[at + n] === '0') n++;
    if (n > best.n) best = { at, n };
  }
  if (best.at < 0) return groups.join(':');
  return `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.n).join(':')}`;
}

function uuidBytes(name) {
  const hex = UUID.exec(name).slice(1).join('');
  return Uint8Array.from(hex.match(/../g), (h) => Number.parseInt(h, 16));
}

function uuidText(bytes) {
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}.local`;
}

// --- the checks both ways --------------------------------------------------------------------------------------------

/** Refuse `fields` in words, naming the field and what it may be, unless every one is as a code carries it. */
function check(fields) {
  const text = (name, value, range, chars, what) => {
    if (typeof value !== 'string' || value.length < range.min || value.length > range.max || !chars.test(value)) {
      const got = typeof value === 'string' ? `${value.length} characters` : 'none';
      throw new CodeError(`its ${name} must be ${range.min} to ${range.max} ${what}, got ${got}`);
    }
  };
  if (fields.type !== 'offer' && fields.type !== 'answer') throw new CodeError('it must be an offer or an answer');
  if (!SETUPS.includes(fields.setup)) throw new CodeError(`its setup role must be one of ${SETUPS.join(', ')}`);
  if (fields.type === 'offer' && fields.setup !== 'actpass')
    throw new CodeError('an offer’s setup role must be actpass');
  if (fields.type === 'answer' && fields.setup === 'actpass') {
    throw new CodeError('an answer’s setup role must be active or passive');
  }
  text('ICE username (ufrag)', fields.ufrag, UFRAG, ICE_CHARS, 'letters, digits, + or /');
  text('ICE password (pwd)', fields.pwd, PWD, ICE_CHARS, 'letters, digits, + or /');
  text('mid', fields.mid, MID, MID_CHARS, 'letters, digits, _ . or -');
  if (!(fields.fingerprint instanceof Uint8Array) || fields.fingerprint.length !== FINGERPRINT_BYTES) {
    throw new CodeError(`its fingerprint must be ${FINGERPRINT_BYTES} bytes (SHA-256)`);
  }
  const n = fields.addresses?.length ?? 0;
  if (n < 1 || n > MOST_ADDRESSES) throw new CodeError(`it must hold 1 to ${MOST_ADDRESSES} addresses, got ${n}`);
  for (const a of fields.addresses) {
    if (!Number.isInteger(a.port) || a.port < 1 || a.port > 65535) {
      throw new CodeError(`an address’s port must be from 1 to 65535, got ${a.port}`);
    }
  }
}

// --- packing -------------------------------------------------------------------------------------------------------

/** `fields` (fieldsOf's) with the join id `join` (JOIN_BYTES random bytes, as joinId() makes) packed as a code's
 * base64url text. */
export function pack(fields, join) {
  check(fields);
  if (!(join instanceof Uint8Array) || join.length !== JOIN_BYTES) throw new CodeError('a join id is 4 bytes');
  const ascii = (s) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  const bytes = [
    VERSION,
    (fields.type === 'answer' ? 1 : 0) | (SETUPS.indexOf(fields.setup) << 1),
    ...join,
    ...ascii(fields.ufrag),
    ...ascii(fields.pwd),
    ...fields.fingerprint,
    ...ascii(fields.mid),
    fields.addresses.length,
  ];
  for (const { kind, address, port } of fields.addresses) {
    const b = kind === 'ipv4' ? ipv4Bytes(address) : kind === 'ipv6' ? ipv6Bytes(address) : uuidBytes(address);
    bytes.push(KIND[kind], ...b, port >> 8, port & 255);
  }
  return toBase64url(Uint8Array.from(bytes));
}

/** A fresh join id: JOIN_BYTES random bytes. */
export const joinId = () => crypto.getRandomValues(new Uint8Array(JOIN_BYTES));

/** A join id as the short text the page names a peer by. */
export const idText = (join) => toBase64url(join);

/** What a code's text holds: {version, type, setup, join (its idText), ufrag, pwd, fingerprint, mid, addresses}.
 * Untrusted: throws CodeError saying what is wrong (cut, altered, a field out of its range, a newer version). */
export function unpack(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]+$/.test(text)) {
    throw new CodeError('it must be letters, digits, - and _ only (base64url)');
  }
  if (text.length > LINK_CHARS) throw new CodeError(`it must be at most ${LINK_CHARS} characters, got ${text.length}`);
  // read as far as it goes first, so a code cut anywhere says it is cut (a cut seldom ends on a whole byte); its
  // last character is checked once the fields are whole
  const bytes = fromBase64url(text, { loose: true });
  let at = 0;
  const take = (n, what) => {
    if (at + n > bytes.length) throw new CodeError(`it is cut: it ends inside its ${what}`);
    at += n;
    return bytes.subarray(at - n, at);
  };
  const ascii = (what) => String.fromCharCode(...take(take(1, what)[0], what));
  const version = take(1, 'version')[0];
  if (version > VERSION) throw new CodeError('it was made by a newer Arbiter: update this one (reload it) first');
  if (version !== VERSION) throw new CodeError(`its version must be ${VERSION}, got ${version}`);
  const flags = take(1, 'flags')[0];
  if (flags >> 3 || flags >> 1 >= SETUPS.length) throw new CodeError(`its flags must be 0 to 5, got ${flags}`);
  const fields = {
    version,
    type: flags & 1 ? 'answer' : 'offer',
    setup: SETUPS[flags >> 1],
    join: idText(take(JOIN_BYTES, 'join id')),
    ufrag: ascii('ICE username'),
    pwd: ascii('ICE password'),
    fingerprint: Uint8Array.from(take(FINGERPRINT_BYTES, 'fingerprint')),
    mid: ascii('mid'),
    addresses: [],
  };
  const n = take(1, 'count of addresses')[0];
  if (n < 1 || n > MOST_ADDRESSES) throw new CodeError(`it must hold 1 to ${MOST_ADDRESSES} addresses, got ${n}`);
  for (let i = 0; i < n; i++) {
    const k = take(1, 'address')[0];
    if (!(k in KIND_BYTES)) throw new CodeError(`an address’s kind must be 1 (mDNS), 4 (IPv4) or 6 (IPv6), got ${k}`);
    const b = take(KIND_BYTES[k], 'address');
    const [hi, lo] = take(2, 'port');
    const address = k === 4 ? [...b].join('.') : k === 6 ? ipv6Text(b) : uuidText(b);
    fields.addresses.push({ kind: k === 4 ? 'ipv4' : k === 6 ? 'ipv6' : 'mdns', address, port: (hi << 8) | lo });
  }
  if (at !== bytes.length) throw new CodeError(`it is altered: ${bytes.length - at} bytes follow its end`);
  fromBase64url(text); // whole fields: its length and last character as base64url gives them
  check(fields);
  return fields;
}

/** The code `text` that came after `#${word}=` (word 'j' or 'a'), unpacked; refused whole in a sentence naming the
 * code and what is wrong (a join code's place holding an answer, or the other way, included). */
export function readCode(word, text) {
  const what = word === 'a' ? 'answer code' : 'join code';
  try {
    const fields = unpack(text);
    if (fields.type !== CODE_WORDS[word]) {
      throw new CodeError(`it is ${fields.type === 'offer' ? 'a join code' : 'an answer code'}, in a ${what}’s place`);
    }
    return fields;
  } catch (error) {
    if (!(error instanceof CodeError)) throw error;
    throw new CodeError(`This ${what} cannot be used: ${error.message}.`);
  }
}

// --- the other phone's description -----------------------------------------------------------------------------------

/** The whole session description ({type, sdp}) of the phone whose code held `fields` (unpack's), as this phone's
 * setRemoteDescription takes it: one m=application section for a data channel, its ICE credentials, fingerprint,
 * setup role and addresses, and no more addresses to come. */
export function describe(fields) {
  const session = Number.parseInt(
    [...fromBase64url(fields.join)].map((b) => b.toString(16).padStart(2, '0')).join(''),
    16,
  );
  const fingerprint = [...fields.fingerprint].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(':');
  const candidates = fields.addresses.map(
    // a host candidate's priority (RFC 8445 5.1.2.1: type preference 126, then each address a little less)
    ({ address, port }, k) => `a=candidate:${k + 1} 1 udp ${2130706431 - k * 256} ${address} ${port} typ host`,
  );
  const lines = [
    'v=0',
    `o=- ${session} 2 IN IP4 127.0.0.1`,
    's=-',
    't=0 0',
    `a=group:BUNDLE ${fields.mid}`,
    'a=msid-semantic: WMS',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 0.0.0.0',
    ...candidates,
    'a=end-of-candidates',
    `a=ice-ufrag:${fields.ufrag}`,
    `a=ice-pwd:${fields.pwd}`,
    `a=fingerprint:sha-256 ${fingerprint}`,
    `a=setup:${fields.setup}`,
    `a=mid:${fields.mid}`,
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ];
  return { type: fields.type, sdp: `${lines.join('\r\n')}\r\n` };
}

// --- base64url -----------------------------------------------------------------------------------------------------

export function toBase64url(bytes) {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** The bytes of base64url `text`; `loose`: as many whole bytes as it holds, whatever its length and last character
 * (unpack reads a code's fields that far, then checks it whole). */
export function fromBase64url(text, { loose = false } = {}) {
  const whole = loose && text.length % 4 === 1 ? text.slice(0, -1) : text;
  if (whole.length % 4 === 1) throw new CodeError('it is cut: its length is not one base64url gives');
  const binary = atob(whole.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  if (!loose && toBase64url(bytes) !== text) {
    throw new CodeError('it is altered: its last character is not one base64url gives');
  }
  return bytes;
}

/** Whether `text` after `#${word}=` is a live table's code this page can read (link.js' `own`, for a pasted or
 * scanned text). */
export const isCode = (word, text) => whyNot(word, text) === null;

/** Why `text` after `#${word}=` is no code this page can read, in a sentence; null when it is one. */
function whyNot(word, text) {
  try {
    readCode(word, text);
    return null;
  } catch (error) {
    if (!(error instanceof CodeError)) throw error;
    return error.message;
  }
}

/** Of the places a pasted or scanned text may hold a link (share/link.js' linkPlaces), the first live table's code
 * and why it cannot be used (its longest piece's reason); null when the text holds none. */
export function whyNotCode(places) {
  const place = places.find(({ kind }) => kind in CODE_WORDS);
  return place ? whyNot(place.kind, place.pieces.at(-1)) : null;
}
