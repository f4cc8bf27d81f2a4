// A small listener set shared by the transports: one failing listener must not keep the others from hearing.
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(value: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch (err) {
        console.error('baton: a listener failed', err);
      }
    }
  }

  clear(): void {
    this.set.clear();
  }
}
