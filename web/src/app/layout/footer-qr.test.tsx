// The footer's QR codes, drawn ahead of time (footer-qr.ts), are what qrcode.react draws for their
// addresses: on a new address this fails and shows the new picture's path.
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { QRCodeSVG } from 'qrcode.react';
import { MINI_PROGRAM, OFFICIAL_ACCOUNT } from './footer-qr';
import { QrCode } from './footer';

describe("the footer's QR codes", () => {
  it.each([OFFICIAL_ACCOUNT, MINI_PROGRAM])('are the SVG QRCodeSVG draws for $value', (code) => {
    expect(renderToStaticMarkup(<QrCode code={code} />)).toBe(renderToStaticMarkup(<QRCodeSVG value={code.value} size={88} />));
  });
});
