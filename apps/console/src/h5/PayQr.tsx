import { QRCodeSVG } from "@rc-component/qrcode";

/** The order's code_url as a QR code: its own chunk, loaded only when a Native order shows one. */
export default function PayQr({ value, label }: { value: string; label: string }) {
  return <QRCodeSVG value={value} size={208} level="M" role="img" aria-label={label} />;
}
