import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aResult } from '../test-support';
import { breakdownOption, pyramidOption } from './result-charts';
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

  it('marks small and complementary suppressed cells and explains them', () => {
    render(<QueryResults result={aResult()} />);
    const race = screen.getByRole('table', { name: 'Race' });
    expect(within(race).getByRole('row', { name: /^Asian < 20/ })).toHaveTextContent('(fewer than the threshold)');
    expect(within(race).getByRole('row', { name: /^Black or African American suppressed/ })).toHaveTextContent('(hidden so that a small count cannot be worked out)');
    expect(screen.getByText(/Counts from 1 to 19 are shown as "< 20"/)).toBeInTheDocument();
  });

  it('has no suppression note when nothing is hidden', () => {
    const result = aResult();
    result.breakdowns.race = result.breakdowns.race.slice(0, 2);
    render(<QueryResults result={result} />);
    expect(screen.queryByText(/Counts from 1 to 19/)).not.toBeInTheDocument();
  });
});

describe('chart options', () => {
  it('draws the first sex of the pyramid to the left and hidden cells as empty bars labelled as shown', () => {
    const result = aResult();
    result.breakdowns.sex_by_age_band.push({
      key: '8507', label: 'MALE',
      cells: [{ key: '40', label: '40–49', count: null, display: '< 20', suppressed: 'small' }, { key: '50', label: '50–59', count: 30, display: '30', suppressed: null }, { key: '60', label: '60–69', count: 0, display: '0', suppressed: null }],
    });
    const option = pyramidOption(result) as { series: { name: string; data: number[]; label: { formatter: (p: { dataIndex: number }) => string } }[]; yAxis: { data: string[] } };
    expect(option.yAxis.data).toEqual(['40–49', '50–59', '60–69']);
    expect(option.series.map((s) => s.name)).toEqual(['FEMALE', 'MALE']);
    expect(option.series[0]!.data).toEqual([-80, -118, -75]);
    expect(option.series[1]!.data).toEqual([0, 30, 0]);
    expect(option.series[1]!.label.formatter({ dataIndex: 0 })).toBe('< 20');
    expect(option.series[1]!.label.formatter({ dataIndex: 1 })).toBe('');
  });

  it('labels every bar of a breakdown with what the API shows', () => {
    const option = breakdownOption(aResult().breakdowns.race, 'Race') as { series: { data: number[]; label: { formatter: (p: { dataIndex: number }) => string } }[] };
    expect(option.series[0]!.data).toEqual([163, 56, 0, 0]);
    expect(option.series[0]!.label.formatter({ dataIndex: 2 })).toBe('suppressed');
    expect(option.series[0]!.label.formatter({ dataIndex: 3 })).toBe('< 20');
  });
});
