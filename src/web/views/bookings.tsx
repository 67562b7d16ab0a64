// Settings → bookings on the balance: payouts and corrections, by date (docs/time-model.md).
import { useState } from 'preact/hooks';
import type { Booking } from '../../http/contract.js';
import { api } from '../api.js';
import { parseDuration } from '../duration.js';
import { t } from '../i18n/index.js';
import { announcement, fmt, useLoad, zone } from '../state.js';
import { todayIn } from '../week.js';
import { Field, Notice, useAction } from '../ui.js';
import { UndoBar, useUndo } from '../guard.js';

/** Bookings on the balance: payouts and corrections, by date. */
export function Bookings() {
  const text = t().settings;
  const list = useLoad(() => api('GET /api/time-entries/bookings'), []);
  const [date, setDate] = useState(todayIn(zone()));
  const [amount, setAmount] = useState('');
  const [kind, setKind] = useState<Booking['kind']>('payout');
  const [note, setNote] = useState('');
  const action = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    const typed = parseDuration(amount);
    if (typed === undefined || typed === 0) return action.fail(t().fields.minutes, 'minutes');
    // A payout takes time off the balance, whichever sign was typed.
    const minutes = kind === 'payout' ? -Math.abs(typed) : typed;
    void action.run(async () => {
      await api('POST /api/time-entries/bookings', { body: { date, minutes, kind, note } });
      setAmount('');
      setNote('');
      await list.reload();
      announcement.value = text.bookingAdded;
      return text.bookingAdded;
    });
  };
  const undo = useUndo();
  // Removed at once, with an undo for 10 seconds (../guard.tsx): the booking is added again as it was.
  const remove = (booking: Booking) =>
    action.run(async () => {
      await api('DELETE /api/time-entries/bookings/:id', { params: { id: booking.id } });
      await list.reload();
      const { date, minutes, kind, note } = booking;
      undo.offerUndo(text.bookingRemoved, async () => {
        await api('POST /api/time-entries/bookings', { body: { date, minutes, kind, note } });
        await list.reload();
      });
    });
  return (
    <>
      <h3>{text.bookings}</h3>
      <p class="quiet">{text.bookingsHint}</p>
      <form ref={action.formRef} onSubmit={add}>
        <Notice error={action.error ?? list.error} info={action.info} errorRef={action.errorRef} />
        <Field label={text.bookingDate} name="date" type="date" value={date} onInput={setDate} error={action.fieldErrors.date} required />
        <Field label={text.bookingMinutes} name="minutes" value={amount} inputMode="decimal" onInput={setAmount} error={action.fieldErrors.minutes} required />
        <div class="field">
          <label for="booking-kind">{text.bookingKind}</label>
          <select id="booking-kind" name="kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as Booking['kind'])}>
            <option value="payout">{text.payout}</option>
            <option value="correction">{text.correction}</option>
          </select>
        </div>
        <Field label={text.bookingNote} name="note" value={note} onInput={setNote} error={action.fieldErrors.note} />
        <button type="submit" class="primary" disabled={action.busy}>
          {text.addBooking}
        </button>
      </form>
      <UndoBar undo={undo} action={action} />
      <ul class="entries">
        {list.data?.bookings.length === 0 && <li>{text.noBookings}</li>}
        {list.data?.bookings.map((booking) => (
          <li key={booking.id}>
            <span class="entry-text">
              {fmt.day(booking.date)} {booking.date.slice(0, 4)} · {booking.kind === 'payout' ? text.payout : text.correction} {fmt.balance(booking.minutes)}
              {booking.note && ` · ${booking.note}`}
            </span>
            <button type="button" disabled={action.busy} aria-label={text.removeBooking(booking.date)} onClick={() => remove(booking)}>
              {t().absences.remove}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
