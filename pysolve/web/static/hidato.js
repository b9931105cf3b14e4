// The Hidato page: load, generate and solve boards; the solution's path is drawn by the server's SVG.
"use strict";

const $ = id => document.getElementById(id);

function show(svg, verdict, ok, details) {
  $("picture").innerHTML = svg;
  $("verdict").textContent = verdict;
  $("verdict").className = ok === undefined ? "" : ok ? "ok" : "bad";
  $("details").textContent = details || "";
}

async function loadShipped() {
  const board = await call("GET", `/api/hidato/boards/${encodeURIComponent($("shipped").value)}`);
  $("board").value = board.text;
  show(board.svg, `${$("shipped").value}: press solve`);
}

$("load").onclick = () => working(loadShipped);
$("board-file").onchange = async event => {
  const file = event.target.files[0];
  if (file) { $("board").value = await file.text(); show("", `${file.name}: press solve`); }
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
  $("board").value = made.text;
  const d = made.data;
  show(made.svg, `generated: ${d.rows}x${d.cols}, ${d.givens} givens of ${d.cells} cells, ` +
    `difficulty ${d.difficulty.label}; press solve`, undefined, `seed ${d.seed}`);
});
$("solve").onclick = () => working(async () => {
  const answer = await call("POST", "/api/hidato/solve", { board: $("board").value, backend: chosenBackend() });
  const unique = answer.unique === true ? "the solution is unique" : answer.unique === false
    ? "the board is not unique: it has more than one solution" : "uniqueness unknown";
  const verdict = answer.status === "solved" ? `${unique}: solved on ${answer.backend}, counted to 2`
    : `${answer.status} on ${answer.backend}` + (answer.stats.reason ? `: ${answer.stats.reason}` : "");
  show(answer.svg, verdict, answer.status === "solved",
    `${answer.stats.seconds} s` + (answer.stats.states !== undefined ? `, ${answer.stats.states} states` : ""));
});

working(async () => {
  const { boards, shapes } = await call("GET", "/api/hidato/boards");
  for (const name of shapes) $("shape").append(new Option(name, name));
  for (const name of boards) {
    const option = document.createElement("option");
    option.value = option.textContent = name;
    $("shipped").append(option);
  }
  $("shipped").value = "sample";
  await loadShipped();
});
