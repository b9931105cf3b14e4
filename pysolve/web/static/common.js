// Shared by every page: JSON requests that show a server's one-line error (which replaces the page's result),
// SVG helpers, the board pages' result.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

let forgetResult = () => {};

function whenRefused(forget) {
  // The page's way of taking its result away: an error replaces the result, never stands under a stale one.
  forgetResult = forget;
}

function showError(text) {
  // The error replaces the result, then is scrolled into sight: the page may be scrolled to the form that was sent.
  const box = document.getElementById("error");
  box.textContent = text || "";
  if (text) {
    forgetResult();
    box.scrollIntoView({ block: "nearest" });
  }
}

function showText(id, text) {
  // A textarea given a new text (a board loaded or generated), shown from its top-left corner whatever part of
  // the earlier text was scrolled into view.
  const area = document.getElementById(id);
  area.value = text;
  area.scrollLeft = area.scrollTop = 0;
}

async function call(method, url, data) {
  // One JSON request; on a 4xx/5xx the server's one-line error is shown and thrown.
  // The server takes a POST only with a JSON body, so every request but a GET carries one ({} for none).
  const options = { method, headers: {} };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(data === undefined ? {} : data);
  }
  const response = await fetch(url, options).catch(error => {
    showError(`the server did not answer (${error.message})`);
    throw error;
  });
  const answer = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) {
    showError(answer.error || `${response.status} ${response.statusText}`);
    throw new Error(answer.error);
  }
  showError("");
  return answer;
}

function plural(count, word) {
  // `count` and the noun agreeing with it, as pysolve.words.plural says it: 1 move, 2 moves, 0 moves.
  return `${count} ${count === 1 ? word : word + "s"}`;
}

function chosenBackend() {
  return document.getElementById("backend").value;
}

function svgElement(name, attributes, parent) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function inkOn(colour) {
  // Black or white text on a #rrggbb background, whichever reads better.
  const [r, g, b] = [1, 3, 5].map(i => parseInt(colour.slice(i, i + 2), 16));
  return r * 299 + g * 587 + b * 114 > 128000 ? "#111" : "#fff";
}

function busy(on) {
  document.body.classList.toggle("busy", on);
}

async function working(work) {
  // One step that waits on the server: the page shows it is busy, and says when it is done
  // (data-pending, which the browser tests wait on). A refusal was already shown by call().
  document.body.dataset.pending = "1";
  busy(true);
  try {
    return await work();
  } catch (error) {
    return undefined;
  } finally {
    busy(false);
    document.body.dataset.pending = "0";
  }
}

function showResult(verdict, ok, pictures, details) {
  // A board page's result (#verdict, #pictures, #details): the verdict (green when ok, red when not, plain
  // when undefined), pictures as [caption, SVG text] pairs side by side, and a line of details.
  const line = document.getElementById("verdict");
  line.textContent = verdict || "";
  line.className = ok === undefined ? "" : ok ? "ok" : "bad";
  const shown = document.getElementById("pictures");
  shown.replaceChildren();
  for (const [caption, svg] of pictures || []) {
    const figure = document.createElement("figure");
    figure.innerHTML = svg;
    const title = figure.insertBefore(document.createElement("figcaption"), figure.firstChild);
    title.textContent = caption;
    shown.append(figure);
  }
  document.getElementById("details").textContent = details || "";
}

function showBoards(answer, verdict) {
  // A solved, counted or validated board (pysolve.web.core.board_view): the first solution (the board itself
  // when there is none) and, when the search found one, the second, the cells where they differ marked.
  const first = answer.second ? "solution 1" : answer.solution ? "the solution" : "the board";
  const pictures = [[first, answer.svg]];
  if (answer.second_svg) {
    pictures.push([`solution 2: ${answer.differ.length} cell(s) differ from solution 1 (marked)`, answer.second_svg]);
  }
  const stats = answer.stats, broken = stats.broken || [];
  showResult(verdict, answer.status === "solved" && !broken.length, pictures,
    `${stats.seconds} s` + (stats.states !== undefined ? `, ${stats.states} states` : ""));
}

function fillSelect(id, values, chosen) {
  // The options of a <select>, each value its own label.
  const select = document.getElementById(id);
  for (const value of values) select.append(new Option(value, value));
  if (chosen !== undefined) select.value = chosen;
}
