// The review card both wallet flows show before the wallet prompt (docs/pages.md): the launch
// page's and the trade widget's. The caller fills the card's figures; this shows it, moves focus
// to its confirm button, and waits for the person's answer.

/**
 * Shows `card` (a hidden review section) and resolves with the answer: true when `confirm` is
 * clicked, false when `cancel` is. The card is hidden again and both listeners removed either way.
 * @param {HTMLElement} card - the review section (its `hidden` is toggled)
 * @param {HTMLButtonElement} confirm - the button that goes on to the wallet
 * @param {HTMLButtonElement} cancel - the button that sends nothing
 * @returns {Promise<boolean>}
 */
export function askReview(card, confirm, cancel) {
  card.hidden = false;
  confirm.focus();
  return new Promise((resolve) => {
    const done = (answer) => {
      confirm.removeEventListener("click", yes);
      cancel.removeEventListener("click", no);
      card.hidden = true;
      resolve(answer);
    };
    const yes = () => done(true);
    const no = () => done(false);
    confirm.addEventListener("click", yes);
    cancel.addEventListener("click", no);
  });
}
