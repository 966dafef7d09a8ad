/**
 * Display formatting for the server-rendered pages. The functions live in `assets/format.js`, a
 * plain ES module the browser scripts import too, so a figure reads the same whether the server
 * rendered it or a live update replaced it.
 */
export {
  bpsToPercent,
  changeText,
  compactNumberText,
  compactPrice,
  explorerLink,
  formatAmount,
  percentToBps,
  HOLDER_LABEL_TEXT,
  relativeTime,
  shareText,
  shortHex as shortAddress,
  timeTickLabel,
  usdText,
  utcTime,
} from "./assets/format.js";
