/** Wei as ETC in decimal for messages people read: 500000000000000000n → "0.5 ETC", 10n ** 18n → "1.0 ETC". */
export function etcText(wei: bigint): string {
  const sign = wei < 0n ? '-' : '';
  const abs = wei < 0n ? -wei : wei;
  const whole = abs / 10n ** 18n;
  const fraction = (abs % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return `${sign}${whole}.${fraction === '' ? '0' : fraction} ETC`;
}
