/**
 * Keys typed between Ctrl+K and the moment the search box has focus. The search's code loads on
 * its first opening and its dialog focuses the box after it mounts: without this, what an operator
 * typed at once ("305", Enter) went nowhere and Enter opened whatever the page had in focus.
 *
 * A stand-in text box takes the focus at once, so that everything typed lands somewhere real,
 * Chinese input methods included (their text never arrives as single key presses); the search
 * takes its value when it mounts and follows it until its own box has focus.
 */
export interface Typeahead {
  text: string;
  /** Enter was pressed before the box could take it: open the first hit once hits are in. */
  enter: boolean;
}

/** The search box's marker. */
export const SEARCH_INPUT_ID = "menu-search-input";

/** A search whose code never arrives (the network failed) must not keep the focus. */
const GIVE_UP_MS = 10_000;

let standIn: HTMLInputElement | null = null;
let typed: Typeahead | null = null;
let listener: ((typed: Typeahead) => void) | null = null;
let giveUp: number | undefined;
let cancel: (() => void) | null = null;

function changed() {
  if (!typed || !standIn) return;
  typed = { ...typed, text: standIn.value };
  listener?.(typed);
}

function onKeyDown(event: KeyboardEvent) {
  if (!typed || event.isComposing) return;
  if (event.key === "Enter") {
    event.preventDefault();
    typed = { ...typed, enter: true };
    listener?.(typed);
  } else if (event.key === "Escape") {
    const close = cancel;
    endTypeahead();
    close?.();
  }
}

/**
 * From Ctrl+K on, what is typed goes into the stand-in until the search box has focus; Esc there
 * calls `onCancel` (the search closes before it ever showed).
 */
export function startTypeahead(onCancel: () => void): void {
  if (standIn) return;
  cancel = onCancel;
  typed = { text: "", enter: false };
  const input = document.createElement("input");
  input.type = "text";
  input.setAttribute("aria-hidden", "true");
  input.tabIndex = -1;
  // In the viewport (a box off screen may not be allowed the focus) but invisible and inert.
  input.style.cssText = "position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;border:0;padding:0";
  input.addEventListener("input", changed);
  input.addEventListener("keydown", onKeyDown);
  document.body.append(input);
  input.focus();
  standIn = input;
  giveUp = window.setTimeout(() => {
    if (!listener) endTypeahead();
  }, GIVE_UP_MS);
}

/** The box has focus: keys are its own from now on; what was typed stays for the search to take. */
export function stopCapture(): void {
  window.clearTimeout(giveUp);
  if (!standIn) return;
  changed();
  standIn.remove();
  standIn = null;
}

/** The search closed: nothing typed before is kept for the next opening. */
export function endTypeahead(): void {
  stopCapture();
  typed = null;
  listener = null;
  cancel = null;
}

/**
 * The search, once mounted, follows what was typed so far and what is still typed before its box
 * has focus. Answers the text and Enter so far.
 */
export function followTypeahead(onTyped: (typed: Typeahead) => void): Typeahead {
  listener = onTyped;
  return typed ?? { text: "", enter: false };
}
