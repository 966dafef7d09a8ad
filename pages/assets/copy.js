// Copy buttons (docs/pages.md): every `button[data-copy]` (rendered hidden, shown here: without
// JavaScript there is no button that does nothing) copies its value to the clipboard
// (navigator.clipboard, which needs a secure context: https or localhost) and says "Copied" for
// two seconds, or "Copy failed" when the browser refuses; a status line reads the result to
// screen readers.
const COPIED_MS = 2000;

const announcer = document.createElement("p");
announcer.className = "visually-hidden";
announcer.setAttribute("role", "status");
document.body.append(announcer);
for (const button of document.querySelectorAll("button[data-copy]")) button.hidden = false;

/** Copies `text`; resolves true when the clipboard took it. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("button[data-copy]") : null;
  if (!button) return;
  const label = button.getAttribute("aria-label") ?? "Copy";
  const ok = await copyText(button.dataset.copy);
  button.textContent = ok ? "Copied" : "Copy failed";
  announcer.textContent = ok ? `${label.replace(/^Copy /, "")} copied.` : "The browser did not allow copying.";
  clearTimeout(button.copyTimer);
  button.copyTimer = setTimeout(() => {
    button.textContent = "Copy";
  }, COPIED_MS);
});
