// The parts of the settings form that are more than one field: the weekly targets with the schedules
// so far, the holiday region (a list of the regions the calendar knows), the break rules (with the
// German preset), and the missing-day reminder's tick with its hint.
import type { HolidayRegions, Schedule } from '../../http/contract.js';
import { t } from '../i18n/index.js';
import { WEEKDAYS } from '../week.js';
import { Field, type Action } from '../ui.js';
import { ScheduleList } from './schedules.js';

const GERMAN_RULES = [
  { over: '6', minutes: '30' },
  { over: '9', minutes: '45' },
];
export type RuleText = { over: string; minutes: string };

/** Hours a day, from a date on; below them the schedules so far. */
export function TargetsFieldset(props: {
  action: Action;
  targets: Record<string, string>;
  setTargets: (targets: Record<string, string>) => void;
  targetsFrom: string;
  setTargetsFrom: (date: string) => void;
  schedules: Schedule[];
  onSchedulesChange: () => void;
}) {
  const text = t().settings;
  const { action, targets } = props;
  return (
    <fieldset>
      <legend>{text.targets}</legend>
      <p class="quiet">{text.targetsEveryWeek}</p>
      <div class="targets">
        {WEEKDAYS.map((d) => (
          <Field
            key={d}
            name={`weekly_target_minutes.${d}`}
            label={text.weekdays[d]}
            value={targets[d] ?? ''}
            inputMode="decimal"
            error={action.fieldErrors[`weekly_target_minutes.${d}`]}
            onInput={(value) => props.setTargets({ ...targets, [d]: value })}
            required
          />
        ))}
      </div>
      <Field
        label={text.targetsFrom}
        name="targets_valid_from"
        type="date"
        value={props.targetsFrom}
        onInput={props.setTargetsFrom}
        error={action.fieldErrors.targets_valid_from}
        required
      />
      <ScheduleList schedules={props.schedules} onChange={props.onSchedulesChange} />
    </fieldset>
  );
}

export function RegionSelect(props: { action: Action; region: string; setRegion: (region: string) => void; regions: HolidayRegions['regions'] | undefined }) {
  const text = t().settings;
  const { action, region, regions } = props;
  return (
    <div class={action.fieldErrors.holiday_region ? 'field invalid' : 'field'}>
      <label for="holiday-region">{text.region}</label>
      <select
        id="holiday-region"
        name="holiday_region"
        value={region}
        aria-invalid={action.fieldErrors.holiday_region ? 'true' : undefined}
        onChange={(event) => props.setRegion(event.currentTarget.value)}
      >
        <option value="">{text.regionNone}</option>
        {region && !regions?.some((known) => known.code === region) && <option value={region}>{region}</option>}
        {regions?.map((known) => (
          <option key={known.code} value={known.code}>
            {known.name} ({known.code})
          </option>
        ))}
      </select>
      {action.fieldErrors.holiday_region && <p class="field-error">{action.fieldErrors.holiday_region}</p>}
    </div>
  );
}

export function BreakRules(props: {
  action: Action;
  rules: RuleText[];
  setRules: (rules: RuleText[]) => void;
  minBreak: string;
  setMinBreak: (minutes: string) => void;
}) {
  const text = t().settings;
  const { action, rules, setRules } = props;
  return (
    <fieldset>
      <legend>{text.breaks}</legend>
      <p class="quiet">{text.breaksHint}</p>
      {rules.map((rule, index) => (
        <div class="rule" key={index}>
          <Field
            label={text.ruleOver(index + 1)}
            name={`break_rules.${index}.worked_over_minutes`}
            value={rule.over}
            inputMode="decimal"
            error={action.fieldErrors[`break_rules.${index}.worked_over_minutes`]}
            onInput={(value) => setRules(rules.map((r, i) => (i === index ? { ...r, over: value } : r)))}
            required
          />
          <Field
            label={text.ruleBreak(index + 1)}
            name={`break_rules.${index}.break_minutes`}
            value={rule.minutes}
            inputMode="decimal"
            error={action.fieldErrors[`break_rules.${index}.break_minutes`]}
            onInput={(value) => setRules(rules.map((r, i) => (i === index ? { ...r, minutes: value } : r)))}
            required
          />
          <button type="button" onClick={() => setRules(rules.filter((_, i) => i !== index))}>
            {text.removeRule(index + 1)}
          </button>
        </div>
      ))}
      <p>
        <button type="button" onClick={() => setRules([...rules, { over: '', minutes: '' }])}>
          {text.addRule}
        </button>{' '}
        <button type="button" onClick={() => setRules(GERMAN_RULES.map((rule) => ({ ...rule })))}>
          {text.germanPreset}
        </button>
      </p>
      <Field
        label={text.minBreak}
        name="min_break_minutes"
        value={props.minBreak}
        inputMode="decimal"
        onInput={props.setMinBreak}
        error={action.fieldErrors.min_break_minutes}
        required
      />
    </fieldset>
  );
}

/** The missing-day reminder (docs/notices.md), on unless unticked: `reminders_enabled`. */
export function RemindersCheck(props: { checked: boolean; onChange: (checked: boolean) => void }) {
  const text = t().settings;
  return (
    <div class="field check">
      <input
        id="reminders-enabled"
        name="reminders_enabled"
        type="checkbox"
        checked={props.checked}
        aria-describedby="reminders-enabled-hint"
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      <label for="reminders-enabled">{text.reminders}</label>
      <small id="reminders-enabled-hint">{text.remindersHint}</small>
    </div>
  );
}
