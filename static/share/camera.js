// "Scan a roll"'s camera (static/share/scan.js loads this module the first time a player scans, never with the page;
// it imports nothing, so the build leaves it a file of its own, which the service worker precaches):
// getUserMedia with the rear camera preferred, its video in a small frame with Cancel, every track stopped on
// success, on Cancel and on stop(). A frame is read at most FRAME_MS apart, and the next only once the last is read:
// by the browser's BarcodeDetector where it has one (Chrome on Android), else by jsQR in a worker (scan-worker.js,
// started only then: py/tools/vendor.py; saved for offline use once the page is ready), never on the page's thread.

/** An element with its attributes (true: an empty one; on<event>: a listener) and its children. */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  el.append(...children);
  return el;
}

/** At most five frames a second: a slow phone keeps answering while it scans. */
const FRAME_MS = 200;
/** A frame is read at this width at most (the worker's work grows with the pixels). */
const FRAME_WIDTH = 640;
const WORKER = 'static/share/scan-worker.js';
const PASTE_INSTEAD = 'Paste the roll’s link below instead.';

/** What a camera that would not start means for the player (getUserMedia's error names). */
function cameraWords(error) {
  if (error?.name === 'NotAllowedError' || error?.name === 'SecurityError') {
    return 'The camera is not allowed here. Allow it in the browser’s settings, or paste the roll’s link below.';
  }
  if (error?.name === 'NotFoundError' || error?.name === 'OverconstrainedError') {
    return `No camera was found. ${PASTE_INSTEAD}`;
  }
  if (error?.name === 'NotReadableError') {
    return 'The camera is busy in another app. Close it and try again, or paste the roll’s link below.';
  }
  return `The camera could not start. ${PASTE_INSTEAD}`;
}

/** Reads one frame at a time: BarcodeDetector where the browser has it, else jsQR in a worker. */
class Reader {
  static async make() {
    if ('BarcodeDetector' in globalThis) {
      try {
        if ((await BarcodeDetector.getSupportedFormats()).includes('qr_code')) return new Reader('detector');
      } catch {
        // the worker, then
      }
    }
    return new Reader('worker');
  }

  constructor(kind) {
    this.kind = kind;
    if (kind === 'detector') this.detector = new BarcodeDetector({ formats: ['qr_code'] });
    else {
      this.worker = new Worker(new URL(WORKER, document.baseURI).href);
      this.canvas = document.createElement('canvas');
    }
  }

  /** The text of the QR code in `video`'s frame, or null. */
  async read(video) {
    if (this.kind === 'detector') return (await this.detector.detect(video))[0]?.rawValue ?? null;
    const scale = Math.min(1, FRAME_WIDTH / video.videoWidth);
    const width = Math.round(video.videoWidth * scale);
    const height = Math.round(video.videoHeight * scale);
    if (!width || !height) return null;
    Object.assign(this.canvas, { width, height });
    const g = this.canvas.getContext('2d', { willReadFrequently: true });
    g.drawImage(video, 0, 0, width, height);
    const { data } = g.getImageData(0, 0, width, height);
    return new Promise((resolve, reject) => {
      this.worker.onmessage = ({ data: answer }) => resolve(answer.text);
      this.worker.onerror = (event) => {
        event.preventDefault();
        reject(new Error(event.message || 'the QR reader could not load'));
      };
      this.worker.postMessage({ width, height, pixels: data.buffer }, [data.buffer]);
    });
  }

  close() {
    this.worker?.terminate();
  }
}

/** The camera and its frame. `found(text)` is told each code read (resolving true: done, the camera stops; false: not a roll,
 * go on looking); `say(words)` a camera that would not start, in words. */
export class Camera {
  constructor({ found, say, done }) {
    Object.assign(this, { found, say, done });
    this.stream = null;
    this.reader = null;
    this.timer = 0;
    this.run = 0; // which scan a frame belongs to: Cancel ends it, and a late answer is dropped
    this.video = h('video', { muted: true, playsinline: true, 'aria-label': 'The camera', class: 'scan-video' });
    this.video.muted = true;
    this.status = h('p', { class: 'muted', role: 'status', 'data-scan-status': '' });
    this.cancel = h('button', { type: 'button', 'data-scan-cancel': '', onclick: () => this.stop() }, 'Cancel');
    this.frame = h(
      'div',
      { class: 'scan-frame', 'data-scan-frame': '', hidden: true },
      this.video,
      this.status,
      this.cancel,
    );
  }

  get on() {
    return this.stream !== null;
  }

  async start() {
    if (this.stream) return;
    const run = ++this.run;
    if (!navigator.mediaDevices?.getUserMedia) {
      this.say(`This browser cannot use the camera here. ${PASTE_INSTEAD}`);
      return;
    }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: 'environment' } },
        audio: false,
      });
    } catch (error) {
      if (run === this.run) this.say(cameraWords(error));
      return;
    }
    if (run !== this.run) {
      for (const track of stream.getTracks()) track.stop(); // stopped while the camera was asked for
      return;
    }
    this.stream = stream;
    this.frame.hidden = false;
    this.status.textContent = 'Point the camera at the roll’s QR code.';
    this.video.srcObject = stream;
    try {
      await this.video.play();
      this.reader ??= await Reader.make();
    } catch (error) {
      if (run === this.run) {
        console.warn(error);
        this.stop();
        this.say(`The camera could not start. ${PASTE_INSTEAD}`);
      }
      return;
    }
    if (run !== this.run) return;
    this.cancel.focus();
    this.next(run);
  }

  /** Read the next frame no sooner than FRAME_MS after the last began. */
  next(run, began = 0) {
    const wait = Math.max(0, FRAME_MS - (performance.now() - began));
    this.timer = setTimeout(() => this.frameOf(run), wait);
  }

  async frameOf(run) {
    if (run !== this.run || !this.stream) return;
    const began = performance.now();
    let text = null;
    try {
      text = await this.reader.read(this.video);
    } catch (error) {
      if (run !== this.run) return;
      console.warn(error);
      this.stop();
      const offline = navigator.onLine ? '' : ': it needs the network the first time';
      this.say(`The QR reader could not start${offline}. ${PASTE_INSTEAD}`);
      return;
    }
    if (run !== this.run) return;
    if (text !== null && (await this.found(text))) {
      this.stop();
      return;
    }
    this.next(run, began);
  }

  /** Stop the camera (every track) and the reading; the frame hides. */
  stop() {
    this.run++;
    clearTimeout(this.timer);
    if (this.stream) for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    this.video.srcObject = null;
    this.frame.hidden = true;
    this.status.textContent = '';
    if (this.reader?.kind === 'worker') {
      this.reader.close(); // a frame still being read is dropped with it; a new scan starts a new worker
      this.reader = null;
    }
    this.done?.();
  }
}
