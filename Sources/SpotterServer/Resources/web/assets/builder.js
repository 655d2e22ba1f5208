// The workout builder on /compose: add exercises and sets; field names stay the ones the server reads
// (see WorkoutForm). Without script the form still posts the rows the server drew.
"use strict";

(function () {
  const builder = document.getElementById("exercises");
  if (!builder) return;
  builder.addEventListener("click", (event) => {
    const button = event.target.closest(".add-set");
    if (!button) return;
    const exercise = button.closest(".exercise");
    const rows = exercise.querySelectorAll("tbody tr");
    const last = rows[rows.length - 1];
    const row = last.cloneNode(true);
    row.querySelectorAll('input[type="number"]').forEach((input, i) => {
      input.value = last.querySelectorAll('input[type="number"]')[i].value; // sets often repeat
    });
    exercise.querySelector("tbody").appendChild(row);
    renumber();
    row.querySelector('input[name="set_weight"]').focus();
  });
  document.getElementById("add-exercise").addEventListener("click", () => {
    const exercises = builder.querySelectorAll(".exercise");
    const copy = exercises[exercises.length - 1].cloneNode(true);
    copy.querySelectorAll("tbody tr").forEach((row, i) => { if (i > 0) row.remove(); });
    copy.querySelectorAll("input").forEach((input) => { if (input.type !== "hidden") input.value = ""; });
    builder.appendChild(copy);
    renumber();
    copy.querySelector('input[name="exercise_name"]').focus();
  });

  function renumber() {
    builder.querySelectorAll(".exercise").forEach((exercise, e) => {
      exercise.dataset.index = String(e);
      const name = exercise.querySelector('input[name="exercise_name"]');
      name.id = `exercise-${e}`;
      exercise.querySelector("label").setAttribute("for", name.id);
      exercise.querySelector("label").textContent = `Exercise ${e + 1}`;
      exercise.querySelectorAll("tbody tr").forEach((row, s) => {
        row.cells[0].firstChild.textContent = String(s + 1);
        row.querySelector('input[name="set_exercise"]').value = String(e);
        row.querySelector('input[name="set_weight"]').setAttribute("aria-label", `Exercise ${e + 1}, set ${s + 1}, weight in kilograms`);
        row.querySelector('input[name="set_reps"]').setAttribute("aria-label", `Exercise ${e + 1}, set ${s + 1}, reps`);
      });
    });
  }
})();

// ---- Choosing a template loads it into the builder at once (the "Use" button does the same without script). ----
document.getElementById("template")?.addEventListener("change", (event) => event.target.form.submit());
