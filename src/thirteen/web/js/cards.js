// Cards as the room writes them ("As Kd 9c", "??" for a hidden card) and as a person reads them.

/** @typedef {string} Card  two characters, rank then suit: "Qh"; "??" is a card not shown */

export const RANKS = "23456789TJQKA";
export const SUITS = "cdhs";

const RANK_NAMES = {
  2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine",
  T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace",
};
const RANK_LABELS = { T: "10" };
const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
export const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/**
 * The cards of a text ("As Kd", "" for none).
 * @param {string | null | undefined} text
 * @returns {Card[]}
 */
export function parseCards(text) {
  return text ? text.split(/\s+/).filter(Boolean) : [];
}

/**
 * "As Kd" from a list of cards.
 * @param {Card[]} cards
 */
export function cardsText(cards) {
  return cards.join(" ");
}

/**
 * What a screen reader says: "Queen of hearts"; "Face-down card" for "??".
 * @param {Card} card
 */
export function cardName(card) {
  if (card === "??") return "Face-down card";
  const rank = /** @type {Record<string,string>} */ (RANK_NAMES)[card[0]];
  const suit = /** @type {Record<string,string>} */ (SUIT_NAMES)[card[1]];
  return `${rank} of ${suit}`;
}

/** @param {Card} card */
export function rankIndex(card) {
  return RANKS.indexOf(card[0]);
}

/** @param {Card} card */
export function suitIndex(card) {
  return SUITS.indexOf(card[1]);
}

/**
 * Cards by rank (high first), suits as a tie-break.
 * @param {Card[]} cards
 */
export function sortByRank(cards) {
  return [...cards].sort((a, b) => rankIndex(b) - rankIndex(a) || suitIndex(a) - suitIndex(b));
}

/**
 * Cards by suit (clubs, diamonds, hearts, spades), high first within a suit.
 * @param {Card[]} cards
 */
export function sortBySuit(cards) {
  return [...cards].sort((a, b) => suitIndex(a) - suitIndex(b) || rankIndex(b) - rankIndex(a));
}

/**
 * A card drawn in CSS: rank and suit symbol (colour is never the only signal).
 * Interactive cards are buttons (focusable, named); the others are images with a name.
 * @param {Card} card
 * @param {{interactive?: boolean, small?: boolean}} [options]
 * @returns {HTMLElement}
 */
export function cardElement(card, options = {}) {
  const el = document.createElement(options.interactive ? "button" : "span");
  el.className = "card";
  if (options.small) el.classList.add("small");
  el.dataset.card = card;
  el.setAttribute("aria-label", cardName(card));
  if (!options.interactive) el.setAttribute("role", "img");
  else /** @type {HTMLButtonElement} */ (el).type = "button";
  if (card === "??") {
    el.classList.add("back");
    return el;
  }
  el.classList.add(`suit-${card[1]}`);
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = /** @type {Record<string,string>} */ (RANK_LABELS)[card[0]] ?? card[0];
  rank.setAttribute("aria-hidden", "true");
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = /** @type {Record<string,string>} */ (SUIT_SYMBOLS)[card[1]];
  suit.setAttribute("aria-hidden", "true");
  el.append(rank, suit);
  return el;
}
