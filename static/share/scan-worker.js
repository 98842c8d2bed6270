// Reads a QR code in a camera frame, off the page's thread: jsQR (pinned by py/tools/vendor.py), loaded with this
// worker, which static/share/scan.js starts only when a player scans and the browser has no BarcodeDetector.
//   in:  {width, height, pixels}   (RGBA, its buffer transferred)
//   out: {text}                    (the code's text, or null when the frame holds none)

importScripts('../vendor/jsQR.js');

self.onmessage = ({ data }) => {
  const { width, height, pixels } = data;
  const code = self.jsQR(new Uint8ClampedArray(pixels), width, height, { inversionAttempts: 'dontInvert' });
  self.postMessage({ text: code ? code.data : null });
};
