// The workout builder on /compose and a workout's edit page: add and remove exercises and sets, cardio's pace
// as it is typed; field names stay the ones the server reads (see WorkoutDraft). Without script the form still
// posts the rows the server drew, and blank rows are ignored.
"use strict";

(function () {
  const builder = document.getElementById("exercises");
  const form = builder?.closest("form");
  if (!form || !builder) return;
  const unitName = form.dataset.weightUnitName || "kilograms";
  const type = document.getElementById("type");
  const minutes = document.getElementById("duration");
  let minutesTouched = minutes.value !== "";
  minutes.addEventListener("input", () => { minutesTouched = true; });

  // Cardio shows distance, time and pace; other types show sets. Only script hides either.
  function showType() {
    const cardio = type.value === "cardio";
    form.classList.toggle("is-cardio", cardio);
    builder.querySelectorAll(".cardio-fields").forEach((fields) => { fields.hidden = !cardio; });
    builder.querySelectorAll(".sets, .add-set").forEach((part) => { part.hidden = cardio; });
  }
  type.addEventListener("change", showType);
  showType();

  builder.addEventListener("click", (event) => {
    const exercise = event.target.closest(".exercise");
    if (event.target.closest(".add-set")) {
      const rows = exercise.querySelectorAll("tbody tr");
      const last = rows[rows.length - 1];
      const row = last.cloneNode(true);
      clearErrors(row);
      plain(row);
      row.querySelectorAll('input[type="number"]').forEach((input, i) => {
        input.value = last.querySelectorAll('input[type="number"]')[i].value; // sets often repeat
      });
      exercise.querySelector("tbody").appendChild(row);
      renumber();
      row.querySelector('input[name="set_weight"]').focus();
    } else if (event.target.closest(".remove-set")) {
      const rows = exercise.querySelectorAll("tbody tr");
      const row = event.target.closest("tr");
      if (rows.length > 1) {
        row.remove();
      } else {
        row.querySelectorAll('input[type="number"]').forEach((input) => { input.value = ""; });
        plain(row);
      }
      renumber();
      exercise.querySelector(".add-set").focus();
    } else if (event.target.closest(".remove-exercise")) {
      if (builder.querySelectorAll(".exercise").length > 1) {
        exercise.remove();
      } else {
        blank(exercise);
      }
      renumber();
      document.getElementById("add-exercise").focus();
    }
  });

  document.getElementById("add-exercise").addEventListener("click", () => {
    const exercises = builder.querySelectorAll(".exercise");
    const copy = exercises[exercises.length - 1].cloneNode(true);
    blank(copy);
    builder.appendChild(copy);
    renumber();
    copy.querySelector('input[name="exercise_name"]').focus();
  });

  builder.addEventListener("input", (event) => {
    const exercise = event.target.closest(".exercise");
    if (exercise && event.target.closest(".cardio-fields")) showPace(exercise);
  });
  builder.addEventListener("change", (event) => {
    const exercise = event.target.closest(".exercise");
    if (exercise && event.target.name === "exercise_distance_unit") showPace(exercise);
  });

  // A new set is a normal one: a logged warm-up's type and effort stay with their own row.
  function plain(row) {
    row.querySelector('input[name="set_type"]').value = "normal";
    row.querySelector('input[name="set_rpe"]').value = "";
    row.querySelector(".set-type")?.remove();
  }

  // An exercise as new: one empty set, no name, no cardio, no error marks.
  function blank(exercise) {
    exercise.querySelectorAll("tbody tr").forEach((row, i) => { if (i > 0) row.remove(); });
    exercise.querySelectorAll('input:not([type="hidden"])').forEach((input) => { input.value = ""; });
    exercise.querySelectorAll("tbody tr").forEach(plain);
    exercise.querySelector(".pace").textContent = "";
    clearErrors(exercise);
  }

  function clearErrors(element) {
    element.querySelectorAll(".field-error").forEach((message) => message.remove());
    element.querySelectorAll("[aria-invalid]").forEach((input) => {
      input.removeAttribute("aria-invalid");
      const described = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => !id.endsWith("-error"));
      if (described.length) input.setAttribute("aria-describedby", described.join(" "));
      else input.removeAttribute("aria-describedby");
    });
  }

  // Pace from distance and time, the way the server shows it (CardioText in SpotterModels).
  function showPace(exercise) {
    const distance = parseFloat(exercise.querySelector('input[name="exercise_distance"]').value.replace(",", "."));
    const unit = exercise.querySelector('select[name="exercise_distance_unit"]').value;
    const seconds = parseTime(exercise.querySelector('input[name="exercise_time"]').value);
    exercise.querySelector(".pace").textContent =
      distance > 0 && seconds > 0 ? `${clock(Math.round(seconds / distance))} /${unit}` : "";
    if (!minutesTouched) {
      let total = 0;
      builder.querySelectorAll('input[name="exercise_time"]').forEach((input) => { total += parseTime(input.value) || 0; });
      if (total > 0) minutes.value = String(Math.max(1, Math.ceil(total / 60)));
    }
  }

  function parseTime(text) {
    const parts = text.trim().split(":");
    if (parts.length > 3 || parts.some((part) => !/^\d+$/.test(part.trim()))) return null;
    const numbers = parts.map(Number);
    if (numbers.length === 1) return numbers[0] * 60;
    return numbers.reduce((total, n) => total * 60 + n, 0);
  }

  function clock(seconds) {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = String(seconds % 60).padStart(2, "0");
    return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  }

  function renumber() {
    builder.querySelectorAll(".exercise").forEach((exercise, e) => {
      exercise.dataset.index = String(e);
      const name = exercise.querySelector('input[name="exercise_name"]');
      name.id = `exercise-${e}`;
      const label = exercise.querySelector(".exercise-head label");
      label.setAttribute("for", name.id);
      label.textContent = `Exercise ${e + 1}`;
      exercise.querySelector(".remove-exercise").setAttribute("aria-label", `Remove exercise ${e + 1}`);
      for (const part of ["distance", "time"]) {
        const input = exercise.querySelector(`input[name="exercise_${part}"]`);
        input.id = `exercise-${e}-${part}`;
        input.closest("div").querySelector("label").setAttribute("for", input.id);
      }
      const help = exercise.querySelector(".cardio-fields .help");
      help.id = `exercise-${e}-time-help`;
      const time = exercise.querySelector('input[name="exercise_time"]');
      time.setAttribute("aria-describedby", [help.id, ...(time.getAttribute("aria-describedby") || "").split(" ").filter((id) => id.endsWith("-error"))].join(" "));
      exercise.querySelector('select[name="exercise_distance_unit"]').setAttribute("aria-label", `Exercise ${e + 1}, distance unit`);
      exercise.querySelectorAll("tbody tr").forEach((row, s) => {
        row.cells[0].firstChild.textContent = String(s + 1);
        row.querySelector('input[name="set_exercise"]').value = String(e);
        const weight = row.querySelector('input[name="set_weight"]');
        weight.id = `set-${e}-${s}-weight`;
        weight.setAttribute("aria-label", `Exercise ${e + 1}, set ${s + 1}, weight in ${unitName}`);
        const reps = row.querySelector('input[name="set_reps"]');
        reps.id = `set-${e}-${s}-reps`;
        reps.setAttribute("aria-label", `Exercise ${e + 1}, set ${s + 1}, reps`);
        row.querySelector(".remove-set").setAttribute("aria-label", `Remove set ${s + 1} of exercise ${e + 1}`);
      });
    });
    showType();
  }
})();

// ---- Choosing a template loads it into the builder at once (the "Use" button does the same without script). ----
document.getElementById("template")?.addEventListener("change", (event) => event.target.form.submit());

// ---- A refused form: the summary of what to fix gets the focus, so it is read first. ----
document.getElementById("form-summary")?.focus();
