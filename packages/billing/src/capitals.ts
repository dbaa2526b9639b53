import { BillingInputError } from "./units.ts";

/*
 * 大写金额: an amount in fen written in Chinese financial capitals, as printed on receipts.
 *
 * Rule source: 中国人民银行《支付结算办法》(银发〔1997〕393号) 附件一《正确填写票据和结算凭证的基本规定》:
 * - 到"元"为止的，在"元"之后写"整"字；在"角"之后可以不写"整"字；有"分"的不写"整"字.
 * - 数字中间有"0"时写"零"；中间连续几个"0"只写一个"零"（￥6,007.14 → 陆仟零柒元壹角肆分）.
 * - 万位或元位是"0"而千位、角位不是"0"时可以写一个"零"或不写；of the two allowed forms this
 *   follows the ones the rule lists first: 万位 no 零 (￥107,000.53 → 壹拾万柒仟元零伍角叁分), 元位
 *   with 零 (￥1,680.32 → 壹仟陆佰捌拾元零叁角贰分).
 * - 角位是"0"而分位不是"0"时，"元"后面写"零"（￥16,409.02 → 壹万陆仟肆佰零玖元零贰分）.
 * Tens are written with their digit (壹拾, as the rule's own ￥107,000.53 example), so that no digit
 * can be added in front of the amount.
 */

const DIGITS = ["零", "壹", "贰", "叁", "肆", "伍", "陆", "柒", "捌", "玖"] as const;
const PLACES = ["", "拾", "佰", "仟"] as const;
/** Section units every four places: 万, 亿, then 万 again (万亿). */
const SECTIONS = ["", "万", "亿", "万"] as const;
/** Yuan below 10^16 (one 万亿 section): far beyond any receipt, and where the 亿 nesting would change. */
const YUAN_LIMIT = 10n ** 16n;

/** The whole yuan (above 0) in capitals, without 元. */
function yuanCapitals(yuan: bigint): string {
  const digits = yuan.toString();
  let out = "";
  let pendingZero = false;
  for (let i = 0; i < digits.length; i++) {
    const place = digits.length - 1 - i;
    const digit = Number(digits[i]);
    if (digit === 0) {
      pendingZero = out !== "";
    } else {
      if (pendingZero) out += "零";
      out += `${DIGITS[digit] ?? ""}${PLACES[place % 4] ?? ""}`;
      pendingZero = false;
    }
    if (place % 4 === 0 && place > 0) {
      const section = SECTIONS[place / 4] ?? "";
      // A section unit is written when its own four digits are not all zero; 亿 also when the
      // 万亿 section above it is not zero (壹万亿, not 壹万).
      const sectionDigits = digits.slice(Math.max(0, i - 3), i + 1);
      const aboveYi = place === 8 && digits.length > 12 && /[1-9]/.test(digits.slice(0, digits.length - 12));
      if (/[1-9]/.test(sectionDigits) || aboveYi) {
        out += section;
        pendingZero = false; // the 万位 zero before a non-zero 千位 is not written (rule's first form)
      }
    }
  }
  return out;
}

/**
 * An exact amount in fen as Chinese financial capitals: 12300n → "壹佰贰拾叁元整", 100550n →
 * "壹仟零伍元伍角", 0n → "零元整", 1002005n → "壹万零贰拾元零伍分", negative → "负…".
 */
export function fenToCapitals(fen: bigint): string {
  if (fen < 0n) return `负${fenToCapitals(-fen)}`;
  const yuan = fen / 100n;
  if (yuan >= YUAN_LIMIT) throw new BillingInputError("amount", "amount is too large to write in capitals");
  const jiao = Number((fen / 10n) % 10n);
  const cents = Number(fen % 10n);
  if (fen === 0n) return "零元整";
  let out = yuan > 0n ? `${yuanCapitals(yuan)}元` : "";
  if (jiao === 0 && cents === 0) return `${out}整`;
  const yuanDigitZero = yuan > 0n && yuan % 10n === 0n;
  if (jiao > 0) out += `${yuanDigitZero ? "零" : ""}${DIGITS[jiao]}角`;
  if (cents > 0) out += `${jiao === 0 && yuan > 0n ? "零" : ""}${DIGITS[cents]}分`;
  return out;
}
