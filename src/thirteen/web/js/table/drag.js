// Drag and drop with Pointer Events (mouse, pen and finger alike; not HTML5 drag and drop).
// A press on a draggable card that moves a few pixels becomes a drag: a copy of the card follows
// the pointer, and on release `onDrop` learns the element under it. The click that a browser
// sends after a drag is swallowed, so a drag never also counts as a click.

const THRESHOLD = 6;

/**
 * @param {HTMLElement} root where draggable cards live (events are delegated)
 * @param {{card: (el: Element) => string | null,
 *          onDrop: (card: string, target: Element | null, x: number, y: number) => void,
 *          onStart?: (card: string) => void, onEnd?: () => void}} options
 * @returns {() => void} stops listening
 */
export function enableDrag(root, options) {
  /** @type {{id: number, x: number, y: number, card: string, el: HTMLElement,
   *          ghost: HTMLElement | null, dx: number, dy: number} | null} */
  let press = null;
  let swallow = false;

  /** @param {PointerEvent} event */
  function down(event) {
    if (press || event.button !== 0) return;
    const el = /** @type {HTMLElement | null} */ (
      event.target instanceof Element ? event.target.closest(".card") : null
    );
    if (!el || !root.contains(el)) return;
    const card = options.card(el);
    if (!card) return;
    const box = el.getBoundingClientRect();
    press = {
      id: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      card,
      el,
      ghost: null,
      dx: event.clientX - box.left,
      dy: event.clientY - box.top,
    };
  }

  /** @param {PointerEvent} event */
  function move(event) {
    if (!press || event.pointerId !== press.id) return;
    if (!press.ghost) {
      if (Math.hypot(event.clientX - press.x, event.clientY - press.y) < THRESHOLD) return;
      const ghost = /** @type {HTMLElement} */ (press.el.cloneNode(true));
      ghost.classList.add("ghost");
      ghost.setAttribute("aria-hidden", "true");
      ghost.removeAttribute("data-card");
      ghost.tabIndex = -1;
      document.body.append(ghost);
      press.ghost = ghost;
      press.el.classList.add("dragging");
      options.onStart?.(press.card);
    }
    event.preventDefault();
    press.ghost.style.left = `${event.clientX - press.dx}px`;
    press.ghost.style.top = `${event.clientY - press.dy}px`;
    const over = document.elementFromPoint(event.clientX, event.clientY);
    for (const el of document.querySelectorAll(".drop-over")) el.classList.remove("drop-over");
    over?.closest("[data-zone]")?.classList.add("drop-over");
  }

  /** @param {PointerEvent} event */
  function up(event) {
    if (!press || event.pointerId !== press.id) return;
    const { ghost, card, el } = press;
    press = null;
    if (!ghost) return;
    ghost.remove();
    el.classList.remove("dragging");
    for (const over of document.querySelectorAll(".drop-over")) over.classList.remove("drop-over");
    // the click a browser may send right after this release belongs to the drag
    swallow = true;
    window.setTimeout(() => {
      swallow = false;
    }, 0);
    if (event.type === "pointercancel") {
      options.onEnd?.();
      return;
    }
    const target = document.elementFromPoint(event.clientX, event.clientY);
    options.onDrop(card, target, event.clientX, event.clientY);
    options.onEnd?.();
  }

  /** @param {MouseEvent} event */
  function click(event) {
    if (swallow) {
      swallow = false;
      event.stopPropagation();
      event.preventDefault();
    }
  }

  root.addEventListener("pointerdown", down);
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
  window.addEventListener("click", click, true);
  return () => {
    root.removeEventListener("pointerdown", down);
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    window.removeEventListener("click", click, true);
    press?.ghost?.remove();
    press = null;
  };
}
