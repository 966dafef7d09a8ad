// The token page's top holders (docs/pages.md "Token page"). The server rendered the first rows
// (pages/holderList.tsx builds the same ones); this module reads the list again after each trade
// (saying so when that fails), adds "Show more holders" pages up to the 200 largest, and tags the
// connected wallet's own row "You".
import { explorerLink, formatAmount, HOLDER_LABEL_TEXT, shareText, shortHex } from "/assets/format.js";
import { creator, explorer, symbol, token } from "/assets/tokenPageData.js";
import { api, plainMessage } from "/assets/wallet.js";
import { onWalletChange, walletConnection } from "/assets/walletChip.js";

const holderList = document.getElementById("holders");
const holdersStatus = document.getElementById("holders-status");
let lastHoldersOk = new Date();

/** One holder row: short address (full in its title), tag, Copy, explorer link, balance, share. */
function holderRow(h, rank) {
  const item = element("li", "holder");
  item.dataset.address = h.address;
  const who = element("span", "holder-who");
  const address = element("span", "mono", shortHex(h.address));
  address.title = h.address;
  who.append(address);
  const tag = h.label
    ? HOLDER_LABEL_TEXT[h.label]
    : h.address.toLowerCase() === creator.toLowerCase()
      ? "Creator"
      : null;
  if (tag) who.append(element("span", "tag", tag));
  const copy = element("button", "copy", "Copy");
  copy.type = "button";
  copy.dataset.copy = h.address;
  copy.setAttribute("aria-label", `Copy address of holder ${rank}`);
  who.append(copy);
  const link = explorerLink(explorer, "address", h.address);
  if (link) {
    const a = element("a", "", "Explorer");
    a.href = link;
    a.rel = "noopener noreferrer";
    a.target = "_blank";
    a.append(element("span", "visually-hidden", ` (holder ${rank})`));
    who.append(a);
  }
  const figures = element("span", "holder-figures");
  figures.append(
    element("span", "holder-balance", `${formatAmount(h.balance_wei, 18, 2)} ${symbol}`),
    element("span", "holder-share", shareText(h.share_bps)),
  );
  item.append(who, figures);
  return item;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text; // text, never HTML
  return node;
}

/** The line above the list, as the server writes it (pages/holderList.tsx `holdersSummary`). */
function holdersSummary(shown, holderCount) {
  return shown >= holderCount
    ? `All ${holderCount} holder${holderCount === 1 ? "" : "s"}, with their share of the total supply.`
    : `The largest ${shown} of ${holderCount} holders, with their share of the total supply.`;
}

/** Holders read per "Show more holders" press; the most the list shows (the API's largest page). */
const HOLDER_PAGE = 50;
const HOLDERS_MAX = 200;
const moreHolders = document.getElementById("holders-more");
/** The holders list's cursor after the last row shown; null when every holder is shown. */
let holdersNext = holderList.dataset.nextCursor || null;
moreHolders.hidden = !holdersNext;

/** Shows `holders` from rank `from` on (1: replaces the list); the summary and the button follow. */
function showHolders(holders, holderCount, nextCursor, from = 1) {
  const rows = holders.map((h, i) => holderRow(h, from + i));
  if (from === 1) holderList.replaceChildren(...rows);
  else holderList.append(...rows);
  const shown = holderList.children.length;
  document.getElementById("holders-summary").textContent = shown ? holdersSummary(shown, holderCount) : "";
  document.getElementById("holders-empty").hidden = shown > 0;
  // A full page carries a cursor even when it holds the last holder: the count says whether more exist.
  holdersNext = shown < Math.min(HOLDERS_MAX, holderCount) ? nextCursor : null;
  moreHolders.hidden = !holdersNext;
  lastHoldersOk = new Date();
  holdersStatus.textContent = "";
  holdersStatus.dataset.kind = "ok";
  markOwnHolderRow();
}

/**
 * Tags the connected wallet's own row "You" (after its address and any other tag), and only that
 * row: called after every render of the list and every wallet change.
 */
function markOwnHolderRow() {
  const me = walletConnection()?.account.toLowerCase();
  for (const row of holderList.children) {
    row.querySelector(".tag.you")?.remove();
    if (me && row.dataset.address?.toLowerCase() === me) {
      const tags = row.querySelectorAll(".holder-who .mono, .holder-who .tag");
      tags[tags.length - 1].after(element("span", "tag you", "You"));
    }
  }
}
markOwnHolderRow();
onWalletChange(markOwnHolderRow);

/** The holders could not be read: the rows stay, the notice says how old they are. */
function holdersFailed(err) {
  holdersStatus.textContent = `The holders could not be updated: ${plainMessage(err)} The list below is as of ${lastHoldersOk.toISOString().slice(11, 19)} UTC; it is read again with the next trade.`;
  holdersStatus.dataset.kind = "error";
}

/**
 * Holder reads run one after another: each reads the list's length and cursor when it starts, so a
 * read-again that was in flight when "Show more holders" appended rows cannot cut the list back.
 */
let holderReads = Promise.resolve();
function queueHolderRead(read) {
  holderReads = holderReads.then(read);
  return holderReads;
}

/**
 * Reads the holders again after a trade: as many as are shown (at least the top 10). Never
 * rejects: a failed read keeps the rows and says how old they are.
 */
export function refreshHolders() {
  return queueHolderRead(async () => {
    const limit = Math.min(HOLDERS_MAX, Math.max(10, holderList.children.length));
    try {
      const { body } = await api(`/api/public/token/${token}/holders?limit=${limit}`);
      showHolders(body.holders, body.holder_count, body.next_cursor);
    } catch (err) {
      holdersFailed(err);
    }
  });
}

moreHolders.addEventListener("click", () => {
  moreHolders.disabled = true;
  return queueHolderRead(async () => {
    try {
      if (holdersNext) {
        const { body } = await api(
          `/api/public/token/${token}/holders?limit=${HOLDER_PAGE}&cursor=${encodeURIComponent(holdersNext)}`,
        );
        showHolders(body.holders, body.holder_count, body.next_cursor, holderList.children.length + 1);
      }
    } catch (err) {
      holdersStatus.textContent = `More holders could not be loaded: ${plainMessage(err)} Press the button to try again.`;
      holdersStatus.dataset.kind = "error";
    }
    moreHolders.disabled = false;
  });
});
