// static/live/signal.js: a live table's codes (issue 32): the few fields of a local description, packed into a link
// of at most 300 characters, unpacked as untrusted input, and the other phone's description built from them.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  CodeError,
  LINK_CHARS,
  MID,
  MOST_ADDRESSES,
  PWD,
  UFRAG,
  chosenAddresses,
  describe as describeRemote,
  fieldsOf,
  fromBase64url,
  idText,
  isCode,
  joinId,
  pack,
  readCode,
  toBase64url,
  unpack,
  whyNotCode,
} from '../../static/live/signal.js';

// A realistic GitHub Pages address, long owner name and all: the whole link must still fit.
const PAGE = 'https://a-rather-long-github-user-name.github.io/arbiter/';
const FINGERPRINT = Array.from({ length: 32 }, (_, i) =>
  ((i * 37 + 11) % 256).toString(16).toUpperCase().padStart(2, '0'),
).join(':');

// A data channel offer as Chromium makes it, its addresses gathered: UDP and TCP host candidates, two IPv6 addresses
// of one interface.
const CHROMIUM_OFFER = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'a=extmap-allow-mixed',
  'a=msid-semantic: WMS',
  'm=application 50436 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 192.168.1.23',
  'a=candidate:1467250027 1 udp 2122260223 192.168.1.23 50436 typ host generation 0 network-id 1 network-cost 10',
  'a=candidate:1 1 udp 2122262783 2a01:e0a:1f2:3b40::1c 51234 typ host generation 0 network-id 2 network-cost 10',
  'a=candidate:2 1 udp 2122262527 2a01:e0a:1f2:3b40:8d1:77ff:fe12:3456 51235 typ host generation 0 network-id 2',
  'a=candidate:3 1 tcp 1518280447 192.168.1.23 9 typ host tcptype active generation 0 network-id 1',
  'a=ice-ufrag:Tq4/',
  'a=ice-pwd:pY9o+zK3rXWmQ2Bv8sLdNfJa',
  'a=ice-options:trickle',
  `a=fingerprint:sha-256 ${FINGERPRINT}`,
  'a=setup:actpass',
  'a=mid:0',
  'a=sctp-port:5000',
  'a=max-message-size:262144',
  '',
].join('\r\n');

// An answer as Firefox makes it: its fingerprint at the session level, mDNS names for its addresses, UDP in capitals.
const FIREFOX_ANSWER = [
  'v=0',
  'o=mozilla...THIS_IS_SDPARTA-128.5.0 5912374123749 0 IN IP4 0.0.0.0',
  's=-',
  't=0 0',
  'a=sendrecv',
  `a=fingerprint:sha-256 ${FINGERPRINT}`,
  'a=group:BUNDLE 0',
  'a=ice-options:trickle',
  'a=msid-semantic:WMS *',
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  'a=candidate:0 1 UDP 2122252543 0f7c1d3e-9a4b-4c2d-8e1f-2a3b4c5d6e7f.local 41234 typ host',
  'a=candidate:1 1 TCP 2105524479 0f7c1d3e-9a4b-4c2d-8e1f-2a3b4c5d6e7f.local 9 typ host tcptype active',
  'a=candidate:2 1 UDP 2122187007 9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a.local 41235 typ host',
  'a=sendrecv',
  'a=end-of-candidates',
  'a=ice-pwd:4f3a8c2e1d0b9a8776655443322110ff',
  'a=ice-ufrag:8c1e2f3a',
  'a=mid:0',
  'a=setup:active',
  'a=sctp-port:5000',
  'a=max-message-size:1073741823',
  '',
].join('\r\n');

const JOIN = Uint8Array.from([1, 2, 250, 255]);

describe('fieldsOf', () => {
  it('takes the ICE credentials, fingerprint, mid, setup role and two addresses of a Chromium offer', () => {
    const fields = fieldsOf('offer', CHROMIUM_OFFER);
    assert.equal(fields.ufrag, 'Tq4/');
    assert.equal(fields.pwd, 'pY9o+zK3rXWmQ2Bv8sLdNfJa');
    assert.equal(fields.setup, 'actpass');
    assert.equal(fields.mid, '0');
    assert.equal(fields.fingerprint.length, 32);
    assert.equal(fields.fingerprint[0], 11);
    // TCP dropped; the second IPv6 address of the same phone dropped
    assert.deepEqual(fields.addresses, [
      { kind: 'ipv4', address: '192.168.1.23', port: 50436 },
      { kind: 'ipv6', address: '2a01:e0a:1f2:3b40::1c', port: 51234 },
    ]);
  });

  it('reads a Firefox answer: session-level fingerprint, mDNS names, UDP in capitals', () => {
    const fields = fieldsOf('answer', FIREFOX_ANSWER);
    assert.equal(fields.setup, 'active');
    assert.equal(fields.ufrag, '8c1e2f3a');
    assert.equal(fields.fingerprint.length, 32);
    assert.deepEqual(
      fields.addresses.map((a) => [a.kind, a.port]),
      [
        ['mdns', 41234],
        ['mdns', 41235],
      ],
    );
  });

  it('says in words when the description has no address, no fingerprint or no data channel', () => {
    const noAddress = CHROMIUM_OFFER.split('\r\n')
      .filter((l) => !l.startsWith('a=candidate'))
      .join('\r\n');
    assert.throws(() => fieldsOf('offer', noAddress), /no address another phone can reach: join a Wi-Fi/);
    const sha1 = CHROMIUM_OFFER.replace(/a=fingerprint:.*/, 'a=fingerprint:sha-1 AB:CD');
    assert.throws(() => fieldsOf('offer', sha1), /no SHA-256 fingerprint/);
    assert.throws(() => fieldsOf('offer', 'v=0\r\n'), /no data channel/);
    assert.throws(() => fieldsOf('pranswer', CHROMIUM_OFFER), CodeError);
  });
});

describe('chosenAddresses', () => {
  const line = (transport, address, port, type = 'host') =>
    `a=candidate:1 1 ${transport} 2122260223 ${address} ${port} typ ${type} generation 0`;

  it('keeps host UDP candidates only, at most two, one IPv6, never one address twice', () => {
    assert.deepEqual(
      chosenAddresses([
        line('tcp', '10.0.0.2', 9),
        line('udp', '203.0.113.9', 3478, 'srflx'),
        line('udp', 'fe80::1', 5000), // link-local: needs its interface named
        line('udp', 'fd00::2', 5001),
        line('udp', 'fd00::3', 5002),
        line('udp', '10.0.0.2', 5003),
        line('udp', '10.0.0.2', 5004),
        line('udp', '10.0.0.3', 5005),
      ]),
      [
        { kind: 'ipv6', address: 'fd00::2', port: 5001 },
        { kind: 'ipv4', address: '10.0.0.2', port: 5003 },
      ],
    );
    assert.equal(MOST_ADDRESSES, 2);
  });

  it('skips what is not an address or a port', () => {
    assert.deepEqual(
      chosenAddresses([line('udp', '300.1.1.1', 5), line('udp', 'host.example', 5), line('udp', '10.0.0.1', 0)]),
      [],
    );
  });
});

describe('pack and unpack', () => {
  it('a Chromium offer and a Firefox answer go and come back whole, each link within 300 characters', () => {
    for (const [type, sdp] of [
      ['offer', CHROMIUM_OFFER],
      ['answer', FIREFOX_ANSWER],
    ]) {
      const fields = fieldsOf(type, sdp);
      const text = pack(fields, JOIN);
      const link = `${PAGE}#${type === 'offer' ? 'j' : 'a'}=${text}`;
      assert.ok(link.length <= LINK_CHARS, `${link.length}: ${link}`);
      const back = unpack(text);
      assert.deepEqual(
        { ...back, version: undefined, join: undefined },
        { ...fields, version: undefined, join: undefined },
      );
      assert.equal(back.join, idText(JOIN));
    }
  });

  it('the longest fields a code takes still make a link within 300 characters', () => {
    const fields = {
      ...fieldsOf('offer', CHROMIUM_OFFER),
      ufrag: 'u'.repeat(UFRAG.max),
      pwd: 'p'.repeat(PWD.max),
      mid: 'm'.repeat(MID.max),
      addresses: [
        { kind: 'ipv6', address: '2a01:e0a:1f2:3b40:8d1:77ff:fe12:3456', port: 65535 },
        { kind: 'mdns', address: '0f7c1d3e-9a4b-4c2d-8e1f-2a3b4c5d6e7f.local', port: 1 },
      ],
    };
    const link = `${PAGE}#j=${pack(fields, JOIN)}`;
    assert.ok(link.length <= LINK_CHARS, String(link.length));
  });

  it('refuses, naming the field and its range, a code cut, altered, of a newer version or out of range', () => {
    const good = fromBase64url(pack(fieldsOf('offer', CHROMIUM_OFFER), JOIN));
    const text = (bytes) => toBase64url(Uint8Array.from(bytes));
    const cases = [
      ['not base64url!', /letters, digits, - and _ only/],
      ['', /letters, digits/],
      ['A'.repeat(LINK_CHARS + 1), /at most 300 characters/],
      [text(good.subarray(0, 40)), /it is cut: it ends inside its fingerprint/],
      [text([...good, 0]), /1 bytes follow its end/],
      [text([2, ...good.subarray(1)]), /newer Arbiter/],
      [text([0, ...good.subarray(1)]), /version must be 1, got 0/],
      [text([1, 7, ...good.subarray(2)]), /flags must be 0 to 5, got 7/],
      [text([1, 2, ...good.subarray(2)]), /an offer’s setup role must be actpass/],
      [text([1, 1, ...good.subarray(2)]), /an answer’s setup role must be active or passive/],
      [text([...good.subarray(0, 6), 2, 65, 65, ...good.subarray(11)]), /ICE username \(ufrag\) must be 4 to 16/],
    ];
    for (const [code, words] of cases) assert.throws(() => unpack(code), words, code);
    // a port of 0, an address of an unknown kind, three addresses
    const n = good.length;
    const lastPort = [...good.subarray(0, n - 2), 0, 0];
    assert.throws(() => unpack(text(lastPort)), /port must be from 1 to 65535, got 0/);
    const addressesAt = n - 2 * (1 + 2) - 4 - 16 - 1; // one IPv4 (4 bytes) and one IPv6 (16 bytes), each kind + port
    const kinds = [...good];
    kinds[addressesAt + 1] = 9;
    assert.throws(() => unpack(text(kinds)), /kind must be 1 \(mDNS\), 4 \(IPv4\) or 6 \(IPv6\), got 9/);
    const three = [...good];
    three[addressesAt] = 3;
    assert.throws(() => unpack(text(three)), /1 to 2 addresses, got 3/);
    // a last character base64url would not give (its spare bits set)
    const last = pack(fieldsOf('offer', CHROMIUM_OFFER), JOIN);
    if (last.length % 4 !== 0) {
      const altered = last.slice(0, -1) + (last.at(-1) === 'B' ? 'C' : 'B');
      assert.throws(() => unpack(altered), CodeError);
    }
  });

  it('says a code cut anywhere is cut, whatever character the cut ends on', () => {
    // a link cut short (a chat's preview, a copy that missed its end) ends on any character: before, a cut that left
    // spare bits set was called altered
    for (const code of [
      pack(fieldsOf('offer', CHROMIUM_OFFER), JOIN),
      pack(fieldsOf('answer', FIREFOX_ANSWER), JOIN),
    ]) {
      for (let cut = 1; cut < code.length; cut++) {
        assert.throws(() => unpack(code.slice(0, -cut)), /it is cut/, `${cut} characters cut`);
      }
    }
  });

  it('readCode says which code in a whole sentence, and refuses an answer in a join code’s place', () => {
    const offer = pack(fieldsOf('offer', CHROMIUM_OFFER), JOIN);
    const answer = pack(fieldsOf('answer', FIREFOX_ANSWER), JOIN);
    assert.equal(readCode('j', offer).type, 'offer');
    assert.equal(readCode('a', answer).type, 'answer');
    assert.throws(() => readCode('j', answer), {
      message: 'This join code cannot be used: it is an answer code, in a join code’s place.',
    });
    assert.throws(() => readCode('a', 'x'), /This answer code cannot be used: it is cut/);
    assert.equal(isCode('j', offer), true);
    assert.equal(isCode('a', offer), false);
    assert.equal(isCode('j', 'garbage!'), false);
    // a pasted text's places (share/link.js): why its live code cannot be used, from its longest piece
    assert.equal(whyNotCode([{ kind: 'r', pieces: ['x'] }]), null);
    assert.equal(whyNotCode([{ kind: 'a', pieces: ['x', answer] }]), null);
    assert.match(whyNotCode([{ kind: 'a', pieces: [offer] }]), /This answer code cannot be used: it is a join code/);
  });

  it('a join id is 4 random bytes', () => {
    assert.equal(joinId().length, 4);
    assert.notDeepEqual(joinId(), joinId());
    assert.throws(() => pack(fieldsOf('offer', CHROMIUM_OFFER), new Uint8Array(3)), /4 bytes/);
  });
});

describe('describe', () => {
  it('writes the other phone’s whole description from the code: one data channel, its addresses, no more to come', () => {
    const fields = unpack(pack(fieldsOf('offer', CHROMIUM_OFFER), JOIN));
    const { type, sdp } = describeRemote(fields);
    assert.equal(type, 'offer');
    const lines = sdp.split('\r\n');
    assert.equal(lines.at(-1), '');
    assert.equal(lines.filter((l) => l.startsWith('m=')).length, 1);
    assert.ok(lines.includes('m=application 9 UDP/DTLS/SCTP webrtc-datachannel'));
    assert.ok(lines.includes('a=ice-ufrag:Tq4/'));
    assert.ok(lines.includes('a=ice-pwd:pY9o+zK3rXWmQ2Bv8sLdNfJa'));
    assert.ok(lines.includes(`a=fingerprint:sha-256 ${FINGERPRINT}`));
    assert.ok(lines.includes('a=setup:actpass'));
    assert.ok(lines.includes('a=mid:0'));
    assert.ok(lines.includes('a=group:BUNDLE 0'));
    assert.ok(lines.includes('a=end-of-candidates'));
    const candidates = lines.filter((l) => l.startsWith('a=candidate:'));
    assert.deepEqual(
      candidates.map((l) => l.split(' ').slice(4, 8).join(' ')),
      ['192.168.1.23 50436 typ host', '2a01:e0a:1f2:3b40::1c 51234 typ host'],
    );
    // read back as a local description would be: the same fields
    assert.deepEqual(
      chosenAddresses(candidates).map((a) => a.port),
      [50436, 51234],
    );
  });

  it('an answer keeps its setup role and mDNS names', () => {
    const { type, sdp } = describeRemote(unpack(pack(fieldsOf('answer', FIREFOX_ANSWER), JOIN)));
    assert.equal(type, 'answer');
    assert.match(sdp, /a=setup:active\r\n/);
    assert.match(sdp, / 0f7c1d3e-9a4b-4c2d-8e1f-2a3b4c5d6e7f\.local 41234 typ host\r\n/);
  });
});
