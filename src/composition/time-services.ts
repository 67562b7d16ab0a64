// The services of working time, wired once for the composition root (src/composition-root.ts):
// settings, entries, absences, bookings, schedules, figures, files.
import { connectionsOf } from '../db/database.js';
import type { Config } from '../config/index.js';
import type { OpenedDatabase } from '../db/database.js';
import type { Clock } from '../common/clock.js';
import { createSettingsService } from '../time/settings/settings.js';
import { createScheduleService } from '../time/schedules.js';
import { createBookingService } from '../time/bookings.js';
import { createVacationService } from '../time/absences/vacation.js';
import { createTimesheetService } from '../time/timesheet/timesheet.js';
import { createStatisticsService } from '../time/statistics/index.js';
import { createTimeEntryService } from '../time/entries/service.js';
import { createAbsenceService } from '../time/absences/absences.js';
import { createEntryCsvService } from '../time/entries/csv.js';
import { createExportGate } from '../time/exports.js';
import { teamLeaveApproval } from '../teams/requests/index.js';
import type { MonthLock } from '../time/month-lock.js';

/** The services of working time: settings, entries, absences, bookings, schedules, figures, files. */
export function timeServices({ config, database, clock, monthLock }: { config: Config; database: OpenedDatabase; clock: Clock; monthLock: MonthLock }) {
  const { db } = database;
  const settings = createSettingsService({ database, clock, monthLock });
  const timeEntries = createTimeEntryService({ database, clock, settings, monthLock });
  // Vacation waits for a lead where a team of the person says so (docs/teams.md, "Leave requests").
  const absences = createAbsenceService({ database, clock, settings, monthLock, approval: teamLeaveApproval });
  const vacation = createVacationService({ db, clock, settings });
  const statistics = createStatisticsService({ db, clock, connections: connectionsOf(config.database) });
  // Exports of one account: one at a time per account, a few at a time per process (src/time/exports.ts).
  const exportGate = createExportGate({ database, clock });
  return {
    settings,
    schedules: createScheduleService({ database, clock, monthLock, trackingStartOf: (trx, userId) => settings.getSettingsInTransaction(trx, userId) }),
    timeEntries,
    absences,
    bookings: createBookingService({ database, clock, monthLock }),
    vacation,
    statistics,
    timesheet: createTimesheetService({ statistics, vacation, settings }),
    exportGate,
    entriesCsv: createEntryCsvService({ database, clock, settings, timeEntries, exports: exportGate, monthLock }),
  };
}
