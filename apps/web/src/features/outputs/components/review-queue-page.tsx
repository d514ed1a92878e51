import { useState } from 'react';
import { useListReviewQueueQuery } from '../api/release-requests';
import { OUTPUT_PAGE_SIZE } from '../labels';
import { ReleaseRequestsTable } from './release-requests-table';

/** The checker's queue: requests of workbenches they are not in, waiting for reviews or a decision, oldest first. */
export function ReviewQueuePage() {
  const [page, setPage] = useState(1);
  const list = useListReviewQueueQuery({ skip: (page - 1) * OUTPUT_PAGE_SIZE, limit: OUTPUT_PAGE_SIZE });
  return (
    <>
      <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 8px' }}>Review outputs</h1>
      <p style={{ color: '#5b6470', margin: '0 0 16px' }}>
        Release requests of workbenches you are not a member of. Vote on every output file, then submit your review; your votes stay
        hidden from the other checkers until all the reviews are in.
      </p>
      <ReleaseRequestsTable
        columns={['title', 'workbench', 'state', 'reviews', 'author', 'submitted']}
        href={(r) => `/review-outputs/${r.id}`}
        list={list}
        page={page}
        onPage={setPage}
        failureTitle="The requests to review could not be loaded."
        empty="Nothing waits for your review."
      />
    </>
  );
}
