// The Sudoku page: a pasted or typed grid solved, counted to K or validated on the chosen back end; generated
// grids of a chosen difficulty. The server reads the grid with pysolve's own reader and draws it.
"use strict";

const $ = id => document.getElementById(id);
whenRefused(() => showResult(""));

function verdictOf(answer, asked) {
  // The page's words for an answer: what was asked, what the back end found.
  const reason = answer.stats.reason ? `: ${answer.stats.reason}` : "";
  return `${asked} on ${answer.backend}: ${answer.verdict}${reason}`;
}

function ask(asked, data) {
  return working(async () => {
    const answer = await call("POST", "/api/sudoku/solve", Object.assign({
      grid: $("grid").value, strategy: $("strategy").value, backend: chosenBackend() }, data));
    showBoards(answer, verdictOf(answer, asked));
  });
}

$("solve").onclick = () => ask("solved", {});
$("count").onclick = () => ask(`counted to ${$("limit").value}`, { count: Number($("limit").value) });
$("validate").onclick = () => ask("validated", { validate: true });
$("generate").onclick = () => working(async () => {
  const data = { size: Number($("size").value), difficulty: $("difficulty").value, seed: Number($("seed").value) };
  if ($("givens").value !== "") data.givens = Number($("givens").value);
  const made = await call("POST", "/api/sudoku/generate", data);
  const d = made.data;
  showText("grid", made.text);
  $("seed").value = d.seed;
  showResult(`generated: ${d.size}x${d.size}, ${d.givens} givens, difficulty ${d.difficulty.label} ` +
    `(${d.difficulty.states} states); press solve`, undefined, [["the puzzle", made.svg]], `seed ${d.seed}`);
});

working(async () => {
  const offered = await call("GET", "/api/sudoku/options");
  fillSelect("strategy", offered.strategies);
  fillSelect("size", offered.sizes, 9);
  fillSelect("difficulty", offered.difficulties);
  $("limit").max = offered.max_count;
});
