/**
 * Ordinary text the body rules must let through (false positives must stay rare): realistic token
 * descriptions, including ones dense with common English words that are also BIP-39 words, line
 * breaks, tabs and non-Latin scripts. Used by `test/unit/body.test.ts` (each rule) and
 * `test/chain/body.test.ts` (through HTTP).
 */
/** Realistic token descriptions, names and labels that must pass every rule. */
export const ORDINARY_PROSE: readonly string[] = [
  "A community coin for people who like to build things together. No roadmap, no promises, just fun.",
  "Moon Dog is the first meme coin on evmchain with a fair launch: the liquidity is locked forever and the creator earns a share of trading fees.",
  "We plant one tree for every hundred holders. Follow the project on X and join the Telegram group to vote on the next forest.",
  "This token celebrates the old harbour of our city: the boats, the fish market, the lighthouse and the people who work there every morning.",
  "Buy it, hold it, forget it. Then remember it ten years later and smile.",
  "The right way to start a day: coffee, a walk with the dog, a good book, and a look at the chart.",
  "Round one, fight! A token for fans of classic arcade games, pixel art and high scores. Level up with friends, share your best run, collect rare badges and enter the weekly tournament.",
  "Our team has been making music together since school. This coin funds a small studio where young artists can record their first album for free.",
  "Simple: fair launch, locked liquidity, no team allocation, no tax. Created by a wallet, traded by everyone.",
  "Cat coin. Because the internet has always belonged to cats, and now the chain does too. Meow.",
  "Daily updates: we post a photo of the same tree every day at noon. Watch the seasons change with us.",
  "Zebra Zone - the black and white token for people who never pick a side.",
  // Many list words, but never twelve in a row: function words ("the", "and", "of", "to") break runs.
  "Come and play a game of chess with the whole world: one move every day, decided by the holders of this token.",
  "Wild animal rescue: every trade helps feed a lion, a zebra, an elephant and a family of owls at the local shelter.",
  "Street food, music, art, dance, fashion, sport, travel, culture: the token of the summer festival in the old town square.",
  "Line 1\nLine 2\n\tindented line 3",
  "Ünïcödé wörks tôo: 日本語の説明文、中文描述、한국어 설명, émojis 🚀🌕🐶 and العربية and עברית.",
];
