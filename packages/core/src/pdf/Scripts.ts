/**
 * Which embedded font families can draw a value, in the order to try them, from the scripts of
 * its characters. A value is drawn in one font, so the first family whose font has every
 * character wins; the order puts the font made for the value's script first (kana means
 * Japanese, hangul Korean) so shared characters (Han, Latin digits) get that script's forms.
 */
import type { Family } from "./Fonts.ts"

const hangul = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]/u
const kana = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/u
const han = /[\u2e80-\u2fdf\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\u{20000}-\u{3134f}]/u
const arabic = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/u
const hebrew = /[\u0590-\u05ff\ufb1d-\ufb4f]/u

/** The families worth trying for `text`, best first; Noto Sans alone for Latin, Greek and Cyrillic. */
export const familiesFor = (text: string): ReadonlyArray<Family> => {
  if (hangul.test(text)) return ["korean", "japanese", "simplifiedChinese", "traditionalChinese"]
  if (kana.test(text)) return ["japanese", "korean", "simplifiedChinese", "traditionalChinese"]
  if (han.test(text)) return ["simplifiedChinese", "traditionalChinese", "japanese", "korean"]
  if (arabic.test(text)) return ["arabic"]
  if (hebrew.test(text)) return ["hebrew"]
  return ["notoSans"]
}
