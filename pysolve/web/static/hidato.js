// The Hidato page: load, generate and solve boards; the solution's path is drawn by the server's SVG, and a
// second solution, when the board has one, beside the first with the cells where they differ marked.
"use strict";

const $ = id => document.getElementById(id);
whenRefused(() => showResult(""));

async function loadShipped() {
  const board = await call("GET", `/api/hidato/boards/${encodeURIComponent($("shipped").value)}`);
  showText("board", board.text);
  showResult(`${$("shipped").value}: press solve`, undefined, [["the board", board.svg]]);
}

function verdictOf(answer) {
  // The page's words for a board counted to 2.
  if (answer.status !== "solved") {
    return `${answer.status} on ${answer.backend}` + (answer.stats.reason ? `: ${answer.stats.reason}` : "");
  }
  const unique = answer.unique ? "the solution is unique"
    : "the board is not unique: it has more than one solution (two shown)";
  return `${unique}: solved on ${answer.backend}, counted to 2`;
}

$("load").onclick = () => working(loadShipped);
$("board-file").onchange = async event => {
  const file = event.target.files[0];
  if (file) { showText("board", await file.text()); showResult(`${file.name}: press solve`); }
};
$("shape").onchange = () => {
  for (const id of ["rows", "cols"]) $(id).disabled = Boolean($("shape").value);
};
$("generate").onclick = () => working(async () => {
  const number = id => Number($(id).value);
  const shape = $("shape").value;
  const made = await call("POST", "/api/hidato/generate", shape
    ? { shape, holes: number("holes"), seed: number("seed") }
    : { rows: number("rows"), cols: number("cols"), holes: number("holes"), seed: number("seed") });
  showText("board", made.text);
  const d = made.data;
  showResult(`generated: ${d.rows}x${d.cols}, ${d.givens} givens of ${d.cells} cells, ` +
    `difficulty ${d.difficulty.label}; press solve`, undefined, [["the board", made.svg]], `seed ${d.seed}`);
});
$("solve").onclick = () => working(async () => {
  const answer = await call("POST", "/api/hidato/solve", { board: $("board").value, backend: chosenBackend() });
  showBoards(answer, verdictOf(answer));
});

working(async () => {
  const { boards, shapes } = await call("GET", "/api/hidato/boards");
  for (const name of shapes) $("shape").append(new Option(name.replace(/^shapes\//, ""), name));  // ring: shapes/ring
  fillSelect("shipped", boards, "sample");
  await loadShipped();
});
