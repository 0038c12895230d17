import { Injectable, Module } from '@nestjs/common';

/** An ordinary Nest service the tool gets by constructor injection. */
@Injectable()
export class WeatherService {
  private readonly temperatures: Record<string, number> = { Tokyo: 22, Oslo: 4 };

  temperatureOf(city: string): number | undefined {
    return this.temperatures[city];
  }
}

/** Exports the weather service to the modules that import it. */
@Module({ providers: [WeatherService], exports: [WeatherService] })
export class WeatherModule {}
