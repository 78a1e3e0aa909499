// The page's elements, for every module of the client: `$(id)` finds one of index.html's
// elements by id (typed by what it is), `el(tag, className, text)` makes a new one.
// @ts-check

/**
 * The elements of index.html that the client uses as more than an HTMLElement, by id.
 * @typedef {{ players: HTMLSelectElement, variant: HTMLSelectElement, create: HTMLButtonElement,
 *   "create-form": HTMLFormElement, "spectate-link": HTMLAnchorElement, listed: HTMLInputElement,
 *   "to-lobby": HTMLAnchorElement, again: HTMLButtonElement, "replace-link": HTMLButtonElement,
 *   "rules-link": HTMLAnchorElement, "gone-watch": HTMLAnchorElement,
 *   "gone-back": HTMLAnchorElement, game: HTMLSelectElement, speed: HTMLSelectElement,
 *   "melvin-flip": HTMLButtonElement, "melvin-slap": HTMLButtonElement }} PageElements
 */
/**
 * The type of the page's element `K`: PageElements' when it names it, else HTMLElement.
 * @template {string} K
 * @typedef {K extends keyof PageElements ? PageElements[K] : HTMLElement} PageElement
 */

/**
 * Return the page's element `id`: index.html has every element the client asks for.
 * @template {string} K
 * @param {K} id
 * @returns {PageElement<K>}
 */
export const $ = (id) => /** @type {PageElement<K>} */ (/** @type {unknown} */ (document.getElementById(id)));

/**
 * Return a new element with a class and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
