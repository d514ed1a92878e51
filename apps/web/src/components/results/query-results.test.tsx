import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aResult } from '@/test-support/query-fixtures';
import { allHidden, breakdownOption, pyramidOption } from './result-charts';
import { categoryLabel } from './category-label';
import { QueryResults } from './query-results';

vi.mock('next/dynamic', () => ({ default: () => () => <div data-testid="charts" /> }));

describe('QueryResults', () => {
  it('shows the person count and every breakdown as numbers', () => {
    render(<QueryResults result={aResult()} />);
    expect(screen.getByTestId('person-count')).toHaveTextContent('273');
    const ages = screen.getByRole('table', { name: 'Age band' });
    expect(within(ages).getByRole('row', { name: '50–59 118' })).toBeInTheDocument();
    expect(screen.getByTestId('charts')).toBeInTheDocument();
  });

  it('marks every suppressed cell alike, whatever hid it, and explains them', () => {
    render(<QueryResults result={aResult()} />);
    const race = screen.getByRole('table', { name: 'Race' });
    for (const name of ['Asian', 'Black or African American']) {
      expect(within(race).getByRole('row', { name: new RegExp(`^${name} suppressed`) })).toHaveTextContent('(a small count, or hidden so that one cannot be worked out)');
    }
    expect(screen.getByText(/A person count from 1 to 19 is shown as "< 20"/)).toBeInTheDocument();
  });

  it('says that counts are perturbed when they are, and not otherwise', () => {
    const { unmount } = render(<QueryResults result={aResult()} />);
    expect(screen.getByText(/Counts are perturbed by a small amount/)).toBeInTheDocument();
    unmount();
    render(<QueryResults result={{ ...aResult(), perturbed: false }} />);
    expect(screen.queryByText(/Counts are perturbed/)).not.toBeInTheDocument();
  });

  it('says why an answer is withheld (its persons within a few of an earlier answer\'s) in place of the suppression note', () => {
    const withheld = 'These persons differ from those of an earlier answer by fewer than 20; the counts are withheld, since comparing the two answers would show how many.';
    const empty = { sex: [], age_band: [], race: [], ethnicity: [], sex_by_age_band: [] };
    render(<QueryResults result={{ ...aResult(), person_count: null, person_count_display: 'withheld', breakdowns: empty, withheld }} />);
    expect(screen.getByTestId('person-count')).toHaveTextContent('withheld');
    expect(screen.getByRole('note')).toHaveTextContent(withheld);
    // No charts and no empty tables: the answer has nothing but why.
    expect(screen.queryByTestId('charts')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText(/A person count from 1 to 19/)).not.toBeInTheDocument();
  });

  it('has no suppression note when nothing is hidden', () => {
    const result = aResult();
    result.breakdowns.race = result.breakdowns.race.slice(0, 2);
    render(<QueryResults result={result} />);
    expect(screen.queryByText(/A person count from 1 to 19/)).not.toBeInTheDocument();
  });
});

describe('labels and hidden charts', () => {
  it('writes sex codes in title case in the tables', () => {
    render(<QueryResults result={aResult()} />);
    expect(within(screen.getByRole('table', { name: 'Sex' })).getByRole('row', { name: 'Female 273' })).toBeInTheDocument();
  });

  it('knows a chart none of whose cells may be shown', () => {
    const hidden = { key: 'x', label: 'X', count: null, display: 'suppressed', suppressed: true };
    expect(allHidden([hidden, { ...hidden, key: 'y' }])).toBe(true);
    expect(allHidden(aResult().breakdowns.race)).toBe(false);
    expect(categoryLabel('MALE')).toBe('Male');
    expect(categoryLabel('Black or African American')).toBe('Black or African American');
  });
});

describe('chart options', () => {
  it('draws the first sex of the pyramid to the left and hidden cells as empty bars labelled as shown', () => {
    const result = aResult();
    result.breakdowns.sex_by_age_band.push({
      key: '8507', label: 'MALE',
      cells: [{ key: '40', label: '40–49', count: null, display: 'suppressed', suppressed: true }, { key: '50', label: '50–59', count: 30, display: '30', suppressed: false }, { key: '60', label: '60–69', count: 0, display: '0', suppressed: false }],
    });
    const option = pyramidOption(result) as { series: { name: string; data: number[]; label: { formatter: (p: { dataIndex: number }) => string } }[]; yAxis: { data: string[] } };
    expect(option.yAxis.data).toEqual(['40–49', '50–59', '60–69']);
    expect(option.series.map((s) => s.name)).toEqual(['Female', 'Male']);
    expect(option.series[0]!.data).toEqual([-80, -118, -75]);
    expect(option.series[1]!.data).toEqual([0, 30, 0]);
    expect(option.series[1]!.label.formatter({ dataIndex: 0 })).toBe('suppressed');
    // Every bar carries its value; the axis is symmetric so both sexes compare.
    expect(option.series[1]!.label.formatter({ dataIndex: 1 })).toBe('30');
    const axis = (option as unknown as { xAxis: { min: number; max: number } }).xAxis;
    expect(axis.min).toBe(-axis.max);
  });

  it('labels every bar of a breakdown with what the API shows', () => {
    const option = breakdownOption(aResult().breakdowns.race, 'Race') as { series: { data: number[]; label: { formatter: (p: { dataIndex: number }) => string } }[] };
    expect(option.series[0]!.data).toEqual([163, 56, 0, 0]);
    expect(option.series[0]!.label.formatter({ dataIndex: 2 })).toBe('suppressed');
    expect(option.series[0]!.label.formatter({ dataIndex: 3 })).toBe('suppressed');
  });
});
