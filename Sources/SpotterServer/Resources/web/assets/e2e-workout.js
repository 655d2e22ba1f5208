// Workouts in encrypted groups (docs/encryption.md, "Content keys and items"): the builder on
// `/compose?group=<encrypted group>` is read here into the workout record the wire carries (SpotterKit's
// `WorkoutRecord`: title, type, start_time, end_time, exercises with sets or cardio, completed), which goes
// inside the sealed post body; the server never sees it, so the checks it makes of a plain workout are made
// here. An opened sealed post's workout is drawn as the server draws a workout card (PostView's WorkoutView).
// Exposes window.SpotterE2EWorkout: fromForm(form), card(workout, units).
"use strict";

(function () {
  const KG_PER_LB = 0.45359237; // exact, as SpotterModels' Units.kilogramsPerPound
  const METRES = { km: 1000, mi: 1609.344, m: 1 };
  const TYPES = { strength: "Strength", circuit: "Circuit", emom: "EMOM", amrap: "AMRAP", cardio: "Cardio" };

  // ---- Reading the builder. ----

  /// "30:45", "1:02:03" or minutes ("45") in seconds; null when it is none (SpotterModels' CardioText.seconds).
  function seconds(text) {
    const parts = text.trim().split(":");
    if (parts.length > 3 || parts.some((part) => !/^\d+$/.test(part.trim()))) return null;
    const numbers = parts.map(Number);
    if (numbers.length === 1) return numbers[0] * 60;
    if (numbers.slice(1).some((n) => n >= 60)) return null;
    return numbers.reduce((total, n) => total * 60 + n, 0);
  }

  /// "5.2", "5.2km", "3.1 mi", "5000m" in metres (a bare number in `unit`); null when it is none.
  function metres(text, unit) {
    let value = text.trim().toLowerCase().replace(",", ".");
    let scale = METRES[unit] || METRES.km;
    for (const suffix of ["km", "mi", "m"]) {
      if (value.endsWith(suffix)) {
        value = value.slice(0, -suffix.length).trim();
        scale = METRES[suffix];
        break;
      }
    }
    if (!/^\d*\.?\d+$|^\d+\.$/.test(value)) return null;
    return Number(value) * scale;
  }

  /// The moment a `datetime-local` text names in an IANA time zone (the person's, as the server reads it).
  function zonedDate(local, timeZone) {
    const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local || "");
    if (!match) return null;
    const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part || 0));
    const wall = Date.UTC(y, mo - 1, d, h, mi, s);
    const format = new Intl.DateTimeFormat("en-US", {
      timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit",
      minute: "2-digit", second: "2-digit",
    });
    const offset = (ms) => {
      const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
      return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - ms;
    };
    const first = wall - offset(wall);
    return new Date(wall - offset(first));
  }

  /// RFC 3339 in UTC with whole seconds, as the wire writes dates: 2026-11-22T19:39:13Z.
  const wireDate = (date) => new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace(".000Z", "Z");

  /// The builder's form as `{workout, problems}`: the workout record, or what is wrong, each with the input
  /// it is about (the same checks the server makes of a plain workout, which it cannot make of a sealed one).
  function fromForm(form) {
    const problems = [];
    const problem = (input, text) => problems.push({ input, text });
    const value = (selector, root = form) => ((root.querySelector(selector) || {}).value || "").trim();
    const perPound = form.dataset.weightUnit === "lb";
    const title = value("#title");
    if (title.length < 1 || title.length > 200) problem("title", "Give the workout a title (up to 200 characters).");
    const type = TYPES[value("#type")] ? value("#type") : "strength";
    const exercises = [];
    form.querySelectorAll(".exercise").forEach((row, e) => {
      const name = value('input[name="exercise_name"]', row);
      const sets = [];
      row.querySelectorAll("tbody tr").forEach((setRow, s) => {
        const weightText = value('input[name="set_weight"]', setRow).replace(",", ".");
        const repsText = value('input[name="set_reps"]', setRow);
        if (!weightText && !repsText) return;
        const weight = Number(weightText);
        const reps = Number(repsText);
        const kg = perPound ? weight * KG_PER_LB : weight;
        if (!weightText || !Number.isFinite(weight) || weight < 0 || kg > 2000) {
          problem(`set-${e}-${s}-weight`, `Exercise ${e + 1}, set ${s + 1}: enter a weight (0 for bodyweight).`);
        } else if (!/^\d+$/.test(repsText) || reps < 1 || reps > 10000) {
          problem(`set-${e}-${s}-reps`, `Exercise ${e + 1}, set ${s + 1}: enter the reps, a whole number from 1.`);
        } else {
          sets.push({ weight_kg: kg, reps, set_type: "normal" });
        }
      });
      let cardio = null;
      const distanceText = value('input[name="exercise_distance"]', row);
      const timeText = value('input[name="exercise_time"]', row);
      if (distanceText || timeText) {
        const unit = value('select[name="exercise_distance_unit"]', row);
        const distance = distanceText ? metres(distanceText, unit) : null;
        const time = timeText ? seconds(timeText) : 0;
        if (distanceText && (distance === null || distance > 1000000)) {
          problem(`exercise-${e}-distance`, `Exercise ${e + 1}: enter a distance, like 5.2.`);
        } else if (time === null || time > 86400) {
          problem(`exercise-${e}-time`, `Exercise ${e + 1}: enter the time as h:mm:ss, mm:ss or minutes.`);
        } else {
          cardio = { duration_s: time };
          if (distance !== null) cardio.distance_m = distance;
        }
      }
      if (!name && sets.length === 0 && !cardio) return;
      if (name.length < 1 || name.length > 100) problem(`exercise-${e}`, `Exercise ${e + 1}: name it.`);
      if (sets.length === 0 && !cardio) {
        const what = type === "cardio" ? "its sets, or its distance and time" : "its sets";
        problem(`exercise-${e}`, `Exercise ${e + 1}: add ${what}.`);
      }
      const entry = { name };
      if (sets.length > 0) entry.sets = sets;
      if (cardio) entry.cardio = cardio;
      exercises.push(entry);
    });
    if (exercises.length === 0) problem("exercise-0", "Add an exercise.");
    if (exercises.length > 100) problem("exercise-0", "A workout lists at most 100 exercises.");
    // Done at, in the person's time zone; left out, now. The time it took is what was typed (or the cardio's).
    const doneAtText = value("#done-at");
    const end = doneAtText ? zonedDate(doneAtText, form.dataset.timeZone || "UTC") : new Date();
    if (!end) problem("done-at", "Pick the date and time you finished.");
    else if (end.getTime() > Date.now() + 5 * 60 * 1000) {
      problem("done-at", "That is in the future; pick a time up to now.");
    }
    // How long it took, only when someone said: the minutes typed, or the cardio's time. Else no end time, as
    // the server's form does (`WorkoutForm`): a workout shows no duration rather than one nobody typed.
    const minutesText = value("#duration");
    // A run's time counts to the minute up, as the server's form and the terminal count it.
    const ran = exercises.reduce((total, entry) => total + ((entry.cardio && entry.cardio.duration_s) || 0), 0);
    let took = type === "cardio" && ran > 0 ? Math.ceil(ran / 60) * 60 : 0;
    if (minutesText) {
      if (!/^\d+$/.test(minutesText) || Number(minutesText) < 1 || Number(minutesText) > 1440) {
        problem("duration", "Enter the minutes it took, a whole number from 1 to 1440.");
      } else {
        took = Number(minutesText) * 60;
      }
    }
    if (problems.length > 0) return { workout: null, problems };
    const start = wireDate(new Date(end.getTime() - took * 1000));
    const workout = { title, type, start_time: start, exercises, completed: true };
    if (took > 0) workout.end_time = wireDate(end);
    const template = form.querySelector('input[name="template_id"]');
    if (template && template.value) workout.template_id = template.value;
    return { workout, problems };
  }

  // ---- Drawing a workout card (the server's WorkoutView and WebFormat, in the viewer's units). ----

  /// Up to two decimals, no trailing zeros: 5.2, 10, 3.11.
  const number = (value) => String(Math.round(value * 100) / 100);

  const clock = (total) => {
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = String(total % 60).padStart(2, "0");
    return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  };

  function weight(kilograms, units) {
    if (units === "kg" && kilograms >= 10000) return `${(kilograms / 1000).toFixed(1)} t`;
    const value = Math.round((units === "lb" ? kilograms / KG_PER_LB : kilograms) * 10) / 10;
    return Number.isInteger(value) ? `${value} ${units}` : `${value.toFixed(1)} ${units}`;
  }

  function cardioLine(cardio, units) {
    const unit = units === "lb" ? "mi" : "km";
    const duration = Number(cardio.duration_s) || 0;
    const parts = [];
    if (typeof cardio.distance_m === "number") parts.push(`${number(cardio.distance_m / METRES[unit])} ${unit}`);
    if (duration > 0) parts.push(clock(duration));
    if (cardio.distance_m > 0 && duration > 0) {
      parts.push(`${clock(Math.round(duration / (cardio.distance_m / METRES[unit])))} /${unit}`);
    }
    return parts.join(" · ");
  }

  function setsLine(sets, units) {
    const runs = [];
    for (const set of sets) {
      const last = runs[runs.length - 1];
      if (last && last.set.reps === set.reps && last.set.weight_kg === set.weight_kg) last.count += 1;
      else runs.push({ set, count: 1 });
    }
    return runs.map(({ set, count }) => {
      const text = `${set.reps} × ${weight(set.weight_kg, units)}`;
      return count === 1 ? text : `${count} sets of ${text}`;
    }).join(", ");
  }

  function duration(total) {
    if (!(total > 0)) return "";
    const minutes = Math.floor(total / 60);
    if (minutes < 60) return `${Math.max(minutes, 1)} min`;
    return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  }

  const ICONS = {
    duration: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 5v5.4l3.5 2.1-1 1.7L11 13.6V7z",
    volume: "M2 10h2v4H2zM20 10h2v4h-2zM5 7h3v10H5zM16 7h3v10h-3zM8 11h8v2H8z",
  };

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function stat(icon, text) {
    const span = element("span");
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "icon");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", ICONS[icon]);
    svg.append(path);
    span.append(svg, ` ${text}`);
    return span;
  }

  /// A `.workout` block as a post card shows it: type and title, one line per exercise, time and volume.
  function card(workout, units) {
    units = units === "lb" ? "lb" : "kg";
    const box = element("div", "workout");
    const heading = element("h3", "workout-title");
    heading.append(element("span", "tag", TYPES[workout.type] || "Workout"), ` ${String(workout.title || "")}`);
    box.append(heading);
    const list = element("ul", "exercises");
    let total = 0;
    for (const entry of Array.isArray(workout.exercises) ? workout.exercises : []) {
      const item = element("li");
      const sets = Array.isArray(entry.sets) ? entry.sets : [];
      total += sets.reduce((sum, set) => sum + (Number(set.weight_kg) || 0) * (Number(set.reps) || 0), 0);
      const detail = entry.cardio ? cardioLine(entry.cardio, units) : setsLine(sets, units);
      item.append(element("strong", "", String(entry.name || "")), " ", element("span", "sets", detail));
      list.append(item);
    }
    box.append(list);
    const stats = element("p", "workout-stats");
    const took = workout.end_time ? duration((Date.parse(workout.end_time) - Date.parse(workout.start_time)) / 1000) : "";
    if (took) stats.append(stat("duration", took));
    if (total > 0) stats.append(stat("volume", `${weight(total, units)} lifted`));
    box.append(stats);
    return box;
  }

  window.SpotterE2EWorkout = Object.freeze({ fromForm, card, zonedDate });

  // ---- The sealed builder on /compose?group=<encrypted group>. ----

  function mark(form, problems) {
    form.querySelectorAll("[aria-invalid]").forEach((input) => input.removeAttribute("aria-invalid"));
    for (const { input } of problems) {
      const field = input && document.getElementById(input);
      if (field) field.setAttribute("aria-invalid", "true");
    }
  }

  async function setUpComposer() {
    const form = document.querySelector("#workout-form[data-sealed-group]");
    const G = window.SpotterE2EGroup;
    const P = window.SpotterE2EPosts;
    const W = window.SpotterE2EWeb;
    if (!form || !G || !P || !W) return;
    // Nothing here posts in the clear: the form has no action, and a submit (Enter in a field) is stopped.
    form.addEventListener("submit", (event) => event.preventDefault());
    const groupId = form.dataset.sealedGroup;
    const error = document.getElementById("sealed-error");
    const button = document.getElementById("sealed-workout-submit");
    const say = (text) => {
      error.textContent = text;
      error.hidden = !text;
    };
    try {
      const keys = await G.epochKeys(groupId);
      if (keys.current == null || !keys.keys.has(keys.current)) {
        W.setStatus("This browser has no keys for this group yet: an admin's device gives them when an admin " +
          "opens the group. Open this page again later.");
        return;
      }
    } catch (failure) {
      W.setStatus(failure.message);
      return;
    }
    W.setStatus("This browser holds this group's keys: the workout is sealed here before it leaves.");
    form.hidden = false;
    button.addEventListener("click", async () => {
      const { workout, problems } = fromForm(form);
      mark(form, problems);
      if (!workout) {
        say(problems.map((p) => p.text).join(" "));
        const first = problems[0] && document.getElementById(problems[0].input);
        if (first) first.focus();
        return;
      }
      const children = Array.from(form.querySelectorAll("input[name=child]:checked"))
        .map((input) => ({ id: input.value, name: input.dataset.name }));
      const files = Array.from((document.getElementById("sealed-workout-photos") || {}).files || []);
      button.disabled = true;
      say("");
      try {
        W.setStatus("Sealing your workout…");
        const text = (document.getElementById("workout-text") || { value: "" }).value.trim();
        await P.post(groupId, { text, workout, children, files });
        location.href = `/groups/${groupId}`;
      } catch (failure) {
        say(failure.message);
        W.setStatus("");
        button.disabled = false;
      }
    });
  }

  document.addEventListener("DOMContentLoaded", setUpComposer);
})();
