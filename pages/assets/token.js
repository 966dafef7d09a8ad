// The token page's script (docs/pages.md "Token page"): the chart (tokenChart.js), the trades
// table (tokenTrades.js), the figures (tokenStats.js), the top holders (tokenHolders.js) and the
// creator's rewards (tokenRewards.js), kept live from the token's trade stream (Server-Sent Events,
// same origin), with polling every 2 s and a visible "Reconnecting" line while the stream is down.
import "/assets/copy.js";
import { loadCandles } from "/assets/tokenChart.js";
import { token } from "/assets/tokenPageData.js";
import "/assets/tokenRewards.js";
import { refreshTrades, showStreamTrade } from "/assets/tokenTrades.js";

const POLL_MS = 2000;
/** The token's trade stream: previews at the indexed head (`pending`) and confirmed trades. */
const STREAM_URL = `/api/public/stream/trades?token=${encodeURIComponent(token)}`;
/** Delay before a stream the service closed (refused, or ended) is opened again, milliseconds. */
const STREAM_REOPEN_MS = 5000;

const liveStatus = document.getElementById("live-status");
let pollTimer = null;
/** The open (or opening) trade stream; null while there is none. */
let stream = null;

/** The line that says how the page is kept current. */
function setLive(kind) {
  liveStatus.dataset.kind = kind;
  liveStatus.textContent =
    kind === "live"
      ? "Live: new trades appear as they happen."
      : kind === "reconnecting"
        ? "Reconnecting to live updates… meanwhile trades are checked every 2 s."
        : kind === "polling"
          ? "Trades are checked every 2 s."
          : "Connecting to live updates…";
}

function startPolling() {
  if (pollTimer !== null) return;
  pollTimer = setInterval(refreshTrades, POLL_MS);
  refreshTrades();
}
function stopPolling() {
  if (pollTimer === null) return;
  clearInterval(pollTimer);
  pollTimer = null;
}

/**
 * Opens the token's trade stream. While it is open the page does not poll; when it fails the page
 * polls and says it is reconnecting. The browser reopens a broken stream by itself (the service's
 * `retry` delay, resuming with Last-Event-ID); a stream the service refused or closed is opened
 * again after STREAM_REOPEN_MS.
 */
function openStream() {
  if (typeof EventSource !== "function") {
    setLive("polling");
    startPolling();
    return;
  }
  if (stream) return;
  const opened = new EventSource(STREAM_URL);
  stream = opened;
  opened.addEventListener("open", () => {
    setLive("live");
    stopPolling();
    // Catch up once: trades between the page's render (or the last poll) and the stream's start.
    refreshTrades();
  });
  const onTrade = (event) => {
    try {
      showStreamTrade(JSON.parse(event.data));
    } catch {
      refreshTrades(); // an unreadable frame: read the list instead
    }
  };
  opened.addEventListener("message", onTrade);
  opened.addEventListener("pending", onTrade);
  // A reorg dropped trades shown as previews: read the whole list (and chart) again.
  opened.addEventListener("reorg", () => refreshTrades(true));
  opened.addEventListener("error", () => {
    if (stream !== opened) return; // closed by the page already
    setLive("reconnecting");
    startPolling();
    if (opened.readyState === EventSource.CLOSED) {
      stream = null;
      setTimeout(openStream, STREAM_REOPEN_MS);
    }
  });
}

/** Closes the stream (the page polls meanwhile). */
function dropStream() {
  stream?.close();
  stream = null;
  setLive("reconnecting");
  startPolling();
}

// The browser knows it lost the network before a silent connection would time out (a phone
// changing networks): poll and say so at once, and open the stream again when it is back.
window.addEventListener("offline", dropStream);
window.addEventListener("online", openStream);

loadCandles();
setLive("connecting");
openStream();
